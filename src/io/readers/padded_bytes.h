// An owned byte buffer followed by zeroed slack, so simdjson can read past the end of the
// document without a second copy of multi-megabyte program JSON.
#pragma once

#include <cstddef>
#include <cstring>
#include <memory>
#include <new>
#include <string_view>

#include "support/huge_pages.h"

namespace pt2lint {

class PaddedBytes {
 public:
  // At least SIMDJSON_PADDING; json_to_proto.cc asserts that.
  static constexpr std::size_t kPadding = 64;

  // Leaves the first `size` bytes uninitialised (the caller fills them) so that a large
  // member does not cost a page-touching memset. Returns false when memory runs out.
  // A multi-megabyte program JSON gets huge pages (see huge_pages.h).
  bool allocate(std::size_t size) {
    data_.reset();
    size_ = 0;
    char* block = static_cast<char*>(allocate_large_block(size + kPadding));
    if (block == nullptr) return false;
    data_ = Block(block, Free{size + kPadding});
    size_ = size;
    std::memset(block + size, 0, kPadding);
    return true;
  }
  bool assign(std::string_view bytes) {
    if (!allocate(bytes.size())) return false;
    if (!bytes.empty()) std::memcpy(data_.get(), bytes.data(), bytes.size());
    return true;
  }
  // Drops bytes at the end (e.g. after a short read); the slack stays zeroed.
  void shrink(std::size_t size) {
    if (size < size_) {
      std::memset(data_.get() + size, 0, kPadding);
      size_ = size;
    }
  }

  char* data() { return data_.get(); }
  const char* data() const { return data_.get(); }
  std::size_t size() const { return size_; }
  std::size_t capacity() const { return size_ + kPadding; }
  std::string_view view() const { return {data_.get(), size_}; }

 private:
  struct Free {
    // As allocated. No default member initializer: inside the enclosing class it would keep
    // unique_ptr from default-constructing the deleter (CWG 1397).
    std::size_t bytes;
    void operator()(char* block) const { free_large_block(block, bytes); }
  };
  using Block = std::unique_ptr<char, Free>;

  Block data_;
  std::size_t size_ = 0;
};

}  // namespace pt2lint
