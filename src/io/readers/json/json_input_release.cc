#include "io/readers/json/json_input_release.h"

#include <sys/mman.h>
#include <unistd.h>

#include <algorithm>

namespace pt2lint::json_reader {
namespace {

// Gives back the whole pages inside [begin, end). The buffers are private anonymous memory
// (huge_pages.h, array_new.cc): a page given back reads as zeros if touched again.
void give_back(const void* begin, const void* end) {
  static const std::uintptr_t page = static_cast<std::uintptr_t>(sysconf(_SC_PAGESIZE));
  const std::uintptr_t from = (reinterpret_cast<std::uintptr_t>(begin) + page - 1) & ~(page - 1);
  const std::uintptr_t to = reinterpret_cast<std::uintptr_t>(end) & ~(page - 1);
  if (to > from) madvise(reinterpret_cast<void*>(from), to - from, MADV_DONTNEED);
}

}  // namespace

void InputRelease::start_at(const std::uint32_t* at, std::size_t offset) {
  json_released_ = std::max(json_released_, std::min(offset, json_size_));
  tokens_released_ = std::max(tokens_released_, static_cast<std::size_t>(at - index_));
  next_check_ = static_cast<std::ptrdiff_t>(offset) + kStep;
}

void InputRelease::jumped(const std::uint32_t* from, std::size_t from_offset,
                          const std::uint32_t* to, std::size_t to_offset) {
  release_before(from_offset, from);
  start_at(to, to_offset);
}

void InputRelease::release_before(std::size_t offset, const std::uint32_t* index_limit) {
  next_check_ = static_cast<std::ptrdiff_t>(offset) + kStep;
  if (offset <= kMargin) return;
  std::size_t keep_from = offset - kMargin;
  const std::uint32_t* limit = index_ + tokens_;
  if (index_limit != nullptr) limit = std::min(limit, index_limit);
  if (hold_ != nullptr) {
    keep_from = std::min(keep_from, hold_->offset.load(std::memory_order_acquire));
    if (const std::uint32_t* held = hold_->token.load(std::memory_order_acquire)) {
      limit = std::min(limit, held);
    }
  }
  // The index: entries that point below keep_from (ascending offsets).
  if (index_ != nullptr && tokens_ > 0 && index_ + tokens_released_ < limit) {
    const std::uint32_t* end = std::lower_bound(index_ + tokens_released_, limit,
                                                static_cast<std::uint32_t>(keep_from));
    const std::size_t upto = static_cast<std::size_t>(end - index_);
    if (upto > tokens_released_) {
      give_back(index_ + tokens_released_, index_ + upto);
      tokens_released_ = upto;
    }
  }
  if (discard_.bytes == nullptr) return;
  if (discard_.others_done != nullptr) {
    keep_from = std::min(keep_from, discard_.others_done->load(std::memory_order_acquire));
  }
  keep_from = std::min(keep_from, json_size_);
  if (keep_from > json_released_) {
    give_back(json_ + json_released_, json_ + keep_from);
    json_released_ = keep_from;
  }
}

}  // namespace pt2lint::json_reader
