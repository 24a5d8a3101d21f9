#include "cli/huge_page_heap.h"

#include <malloc.h>
#include <sys/mman.h>
#include <unistd.h>

#include <cstdint>
#include <cstdlib>

namespace pt2lint {
namespace {

constexpr std::uintptr_t kHugePage = std::uintptr_t{2} << 20;
constexpr int kHeapStep = 64 << 20;
constexpr int kLargestHeapBlock = 32 << 20;  // glibc refuses a higher mmap threshold

std::uintptr_t heap_end() { return reinterpret_cast<std::uintptr_t>(sbrk(0)); }

}  // namespace

void use_huge_pages_for_heap() {
  if (mallopt(M_MMAP_THRESHOLD, kLargestHeapBlock) == 0) return;
  mallopt(M_TOP_PAD, kHeapStep);
  mallopt(M_TRIM_THRESHOLD, 2 * kHeapStep);  // keep the step for the whole run
  const std::uintptr_t before = heap_end();
  // A block larger than what is left at the top makes glibc grow the heap by a step now.
  // `volatile` keeps the compiler from eliding the malloc/free pair.
  char* volatile probe = static_cast<char*>(std::malloc(kHugePage));
  if (probe == nullptr) return;
  probe[0] = 0;
  const std::uintptr_t after = heap_end();
  std::free(probe);
  const std::uintptr_t start = (before + kHugePage - 1) & ~(kHugePage - 1);
  // Growth beyond this step is a new mapping without the advice; one step holds the small
  // blocks of a 5,000-node program several times over.
  if (after > start) madvise(reinterpret_cast<void*>(start), after - start, MADV_HUGEPAGE);
}

}  // namespace pt2lint
