// Memory for the large buffers of one check: blocks of 2 MB and more are mapped on 2 MB
// boundaries and marked MADV_HUGEPAGE. The IR of a 5,000-node program is ~25 MB and its
// JSON 8.6 MB; in 4 KB pages that is ~10,000 page faults per run, which cost more system
// time than building the IR took user time. Smaller blocks come from operator new.
// Stateless functions: the arena's ArenaOptions::block_alloc/block_dealloc, and PaddedBytes.
#pragma once

#include <cstddef>

namespace pt2lint {

// nullptr when memory runs out. Free with free_large_block and the same size.
void* allocate_large_block(std::size_t size) noexcept;
void free_large_block(void* block, std::size_t size) noexcept;

// The same, for google::protobuf::ArenaOptions: throws std::bad_alloc like operator new.
void* allocate_arena_block(std::size_t size);

// For a thread that does a share of one check's work (the reader's and the rules' second
// thread), called first thing: glibc gives the thread a heap of its own, in 4 KB pages,
// whose first touch of each page costs a fault (~10 us on the machine of
// docs/performance.md, more than a thread saves on a 5,000-node program); this marks that
// heap MADV_HUGEPAGE, as the CLI does for the main one (cli/huge_page_heap.cc).
void use_huge_pages_for_thread_heap() noexcept;

// Advises [start, start + length) MADV_HUGEPAGE, start on a 2 MB boundary, and collapses its
// first 2 MB into a huge page now: a range that already had a 4 KB page touched before the
// advice (a heap's own header, written as it grows) would otherwise fault its first 2 MB in
// 4 KB pages, ~250 faults of ~10 us each on the machine of docs/performance.md. Advice only:
// on a kernel without MADV_COLLAPSE (before 6.1) the first 2 MB stays in 4 KB pages.
void advise_huge_pages(void* start, std::size_t length) noexcept;

}  // namespace pt2lint
