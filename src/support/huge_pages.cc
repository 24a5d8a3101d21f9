#include "support/huge_pages.h"

#include <sys/mman.h>
#include <unistd.h>

#include <algorithm>
#include <cstdint>
#include <cstdlib>
#include <new>

namespace pt2lint {
namespace {

constexpr std::size_t kHugePage = std::size_t{2} << 20;
// <linux/mman.h>'s MADV_COLLAPSE (Linux 6.1); glibc 2.36's <sys/mman.h> does not name it.
constexpr int kMadviseCollapse = 25;

bool mapped(std::size_t size) { return size >= kHugePage; }

std::size_t round_up(std::size_t size) { return (size + kHugePage - 1) & ~(kHugePage - 1); }

}  // namespace

void* allocate_large_block(std::size_t size) noexcept {
  if (!mapped(size)) return ::operator new(size, std::nothrow);
  const std::size_t length = round_up(size);
  // Map one huge page more than needed, then trim both ends so the block is aligned: only
  // an aligned 2 MB range can be backed by a huge page.
  void* raw = mmap(nullptr, length + kHugePage, PROT_READ | PROT_WRITE,
                   MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);
  if (raw == MAP_FAILED) return nullptr;
  const auto base = reinterpret_cast<std::uintptr_t>(raw);
  const std::uintptr_t aligned = (base + kHugePage - 1) & ~(kHugePage - 1);
  const std::uintptr_t end = base + length + kHugePage;
  if (aligned > base) munmap(raw, aligned - base);
  if (end > aligned + length) {
    munmap(reinterpret_cast<void*>(aligned + length), end - aligned - length);
  }
  // Advice only: without transparent huge pages the block still works in 4 KB pages.
  madvise(reinterpret_cast<void*>(aligned), length, MADV_HUGEPAGE);
  return reinterpret_cast<void*>(aligned);
}

void free_large_block(void* block, std::size_t size) noexcept {
  if (block == nullptr) return;
  if (mapped(size)) {
    munmap(block, round_up(size));
  } else {
    ::operator delete(block);
  }
}

void* allocate_arena_block(std::size_t size) {
  void* block = allocate_large_block(size);
  // Not a Status: protobuf's ArenaOptions::block_alloc must behave as operator new, which
  // throws on failure (a null block would be dereferenced).
  if (block == nullptr) throw std::bad_alloc();
  return block;
}

void use_huge_pages_for_thread_heap() noexcept {
  // glibc's thread heaps are reservations of HEAP_MAX_SIZE (64 MB on 64-bit) aligned on their
  // size, grown in place: the advice on the reservation holds for what it grows into. A
  // thread that shares the main heap marks part of that heap, which is advice only.
  constexpr std::uintptr_t kThreadHeap = std::uintptr_t{64} << 20;
  void* probe = std::malloc(64);
  if (probe == nullptr) return;
  const auto address = reinterpret_cast<std::uintptr_t>(probe);
  std::free(probe);
  // The main heap lies below the program break, a thread heap is mapped elsewhere: a thread
  // that shares the main heap leaves it to cli/huge_page_heap.cc.
  if (address < reinterpret_cast<std::uintptr_t>(sbrk(0))) return;
  // The heap's header and first blocks were written before the advice: advise_huge_pages
  // collapses them with the rest of the first 2 MB.
  advise_huge_pages(reinterpret_cast<void*>(address & ~(kThreadHeap - 1)), kThreadHeap);
}

void advise_huge_pages(void* start, std::size_t length) noexcept {
  if (madvise(start, length, MADV_HUGEPAGE) != 0) return;
  madvise(start, std::min(length, kHugePage), kMadviseCollapse);
}

}  // namespace pt2lint
