// Replaces the global array new/delete in the checker so that arrays of 2 MB and more land
// on transparent huge pages (src/support/huge_pages.h). The large arrays of a check are
// simdjson's structural index and string buffer (operator new[], sized to the document):
// for kv_nested_256l they take ~2,000 page faults in 4 KB pages, a third of the run's
// system time (docs/performance.md). Sanitizer builds keep their own allocator.
#if !defined(__SANITIZE_ADDRESS__)

#include <cstdint>
#include <cstdlib>
#include <new>

#include "support/huge_pages.h"

namespace {

// Every array carries this header, so delete[] knows where its block came from. 64 bytes
// keep the array as aligned as the block (simdjson's buffers are read with 64-byte SIMD).
struct alignas(64) Header {
  std::size_t block_bytes;  // 0: from malloc
};
constexpr std::size_t kLarge = std::size_t{2} << 20;

void* allocate_array(std::size_t size) noexcept {
  if (size > SIZE_MAX - sizeof(Header)) return nullptr;
  const std::size_t bytes = size + sizeof(Header);
  void* block = bytes >= kLarge ? pt2lint::allocate_large_block(bytes) : std::malloc(bytes);
  if (block == nullptr) return nullptr;
  auto* header = static_cast<Header*>(block);
  header->block_bytes = bytes >= kLarge ? bytes : 0;
  return header + 1;
}

void free_array(void* array) noexcept {
  if (array == nullptr) return;
  Header* header = static_cast<Header*>(array) - 1;
  if (header->block_bytes != 0) {
    pt2lint::free_large_block(header, header->block_bytes);
  } else {
    std::free(header);
  }
}

}  // namespace

void* operator new[](std::size_t size) {
  void* array = allocate_array(size);
  if (array == nullptr) throw std::bad_alloc();
  return array;
}
void* operator new[](std::size_t size, const std::nothrow_t&) noexcept {
  return allocate_array(size);
}
void operator delete[](void* array) noexcept { free_array(array); }
void operator delete[](void* array, std::size_t) noexcept { free_array(array); }
void operator delete[](void* array, const std::nothrow_t&) noexcept { free_array(array); }

#endif
