#include "cli/huge_page_heap.h"

#include <malloc.h>
#include <sys/mman.h>
#include <sys/resource.h>
#include <unistd.h>

#include <cstdint>
#include <cstdlib>

namespace pt2lint {
namespace {

constexpr std::uintptr_t kHugePage = std::uintptr_t{2} << 20;
// What the heap grows by at once. The first growth reserves more: the small blocks of a
// 100,000-node program take ~70 MB, and glibc grows its heap as a new mapping, without the
// advice, in 4 KB pages (~1,700 faults there when the reserve was 64 MB). Address space that
// is never touched costs nothing, but where it is capped (`ulimit -v`, RLIMIT_DATA) the
// reserve stays one step, so as not to use up what the rest of the check maps.
constexpr int kHeapStep = 64 << 20;
constexpr int kHeapReserve = 256 << 20;
constexpr int kLargestHeapBlock = 32 << 20;  // glibc refuses a higher mmap threshold
// glibc's smallest chunk, the size word in front of a block's memory, and room below the
// boundary for the header of the top chunk that follows a block.
constexpr std::uintptr_t kSmallestChunk = 32;
constexpr std::uintptr_t kChunkHeader = sizeof(std::size_t);
constexpr std::uintptr_t kTopChunkRoom = 64;
// Kept in 4 KB pages for the small blocks of start-up: `--version` touches no huge page.
constexpr std::size_t kStartupBlock = 128 << 10;

std::uintptr_t heap_end() { return reinterpret_cast<std::uintptr_t>(sbrk(0)); }

bool address_space_capped() {
  for (int resource : {RLIMIT_AS, RLIMIT_DATA}) {
    rlimit limit{};
    if (getrlimit(resource, &limit) != 0 || limit.rlim_cur != RLIM_INFINITY) return true;
  }
  return false;
}

}  // namespace

void use_huge_pages_for_heap() {
  const int reserve = address_space_capped() ? kHeapStep : kHeapReserve;
  if (mallopt(M_MMAP_THRESHOLD, kLargestHeapBlock) == 0) return;
  mallopt(M_TOP_PAD, reserve);
  mallopt(M_TRIM_THRESHOLD, 2 * reserve);  // keep the reserve for the whole run
  // glibc serves new blocks from the bottom of its top chunk, which begins below the heap's
  // first 2 MB boundary: that stretch, up to 2 MB, can only have 4 KB pages (a huge page
  // needs an aligned 2 MB inside the heap's mapping), ~470 faults at 256 layers. Blocks that
  // fill the top chunk up to the boundary move every later block above it, but for a first
  // stretch kept for the small blocks of start-up, so that a run that allocates little does
  // not fault in a huge page.
  void* startup = std::malloc(kStartupBlock);
  if (startup == nullptr) return;
  const std::uintptr_t top = heap_end() - mallinfo2().keepcost;
  std::uintptr_t boundary = (top + kHugePage - 1) & ~(kHugePage - 1);
  if (boundary - top < kTopChunkRoom + kSmallestChunk) boundary += kHugePage;
  // Larger than the top chunk, so glibc grows the heap by the reserve now. The block is
  // never touched, so it costs no memory, and never freed: freed, it would rejoin the top
  // chunk. `volatile` keeps the compiler from eliding the allocation.
  void* volatile below_boundary = std::malloc(boundary - kTopChunkRoom - top - kChunkHeader);
  std::free(startup);  // not next to the top chunk: glibc serves small blocks from it first
  mallopt(M_TOP_PAD, kHeapStep);
  if (below_boundary == nullptr) return;
  const std::uintptr_t after = heap_end();
  // The top chunk's header, just below the boundary, was written before the advice; the
  // advised range begins at the boundary, untouched.
  if (after > boundary) {
    madvise(reinterpret_cast<void*>(boundary), after - boundary, MADV_HUGEPAGE);
  }
}

}  // namespace pt2lint
