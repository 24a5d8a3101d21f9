// Replaces the global array new/delete in the checker so that arrays of 2 MB and more land
// on transparent huge pages (src/support/huge_pages.h). The large arrays of a check are
// simdjson's structural index and string buffer (operator new[], sized to the document):
// for kv_nested_256l they take ~2,000 page faults in 4 KB pages, a third of the run's
// system time (docs/performance.md). Sanitizer builds keep their own allocator.
#include "support/sanitizers.h"

#if !defined(PT2LINT_ADDRESS_SANITIZER) && !defined(PT2LINT_THREAD_SANITIZER)

#include <cstdint>
#include <cstdlib>
#include <new>

#include "support/huge_pages.h"

namespace {

// Every array starts kHeaderBytes into its block, whose first word says where the block came
// from (its size for a huge-page block, 0 for malloc), so delete[] can give it back. 64 bytes
// keep a huge-page array 64-byte aligned (simdjson reads its buffers with 64-byte SIMD); a
// malloc'd array is as aligned as malloc's block, which is what new[] promises. The header is
// a plain word, not an over-aligned struct: a malloc block is only 16-byte aligned.
constexpr std::size_t kHeaderBytes = 64;
constexpr std::size_t kLarge = std::size_t{2} << 20;

void* allocate_array(std::size_t size) noexcept {
  if (size > SIZE_MAX - kHeaderBytes) return nullptr;
  const std::size_t bytes = size + kHeaderBytes;
  void* block = bytes >= kLarge ? pt2lint::allocate_large_block(bytes) : std::malloc(bytes);
  if (block == nullptr) return nullptr;
  *static_cast<std::size_t*>(block) = bytes >= kLarge ? bytes : 0;
  return static_cast<char*>(block) + kHeaderBytes;
}

void free_array(void* array) noexcept {
  if (array == nullptr) return;
  void* block = static_cast<char*>(array) - kHeaderBytes;
  const std::size_t block_bytes = *static_cast<const std::size_t*>(block);
  if (block_bytes != 0) {
    pt2lint::free_large_block(block, block_bytes);
  } else {
    std::free(block);
  }
}

}  // namespace

void* operator new[](std::size_t size) {
  void* array = allocate_array(size);
  // Not a Status: the language requires a replaced operator new[] to throw, never return null.
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
