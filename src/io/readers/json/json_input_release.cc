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

void InputRelease::release_before(std::size_t offset) {
  next_check_ = static_cast<std::ptrdiff_t>(offset) + kStep;
  if (offset <= kMargin) return;
  std::size_t keep_from = offset - kMargin;
  // The index: entries that point below keep_from (ascending offsets).
  if (index_ != nullptr && tokens_ > 0) {
    const std::uint32_t* end = std::lower_bound(index_ + tokens_released_, index_ + tokens_,
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
