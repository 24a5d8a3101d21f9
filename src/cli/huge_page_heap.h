// Puts the checker's malloc heap on transparent huge pages.
#pragma once

namespace pt2lint {

// A check of kv_nested_256l mallocs ~10 MB in small blocks (the heap buffers of ~50,000 IR
// strings longer than std::string's inline 15 bytes, the program index): in 4 KB pages that
// is ~2,000 page faults (docs/performance.md). This reserves glibc's heap in one step (256
// MB, one 64 MB step where address space is capped), serves blocks up to 32 MB from it (glibc
// maps larger ones separately), starts its blocks on the first 2 MB boundary and advises the
// step MADV_HUGEPAGE so that it faults in 2 MB at a time. Heap that is never touched costs
// nothing. Call first thing in main, before any thread starts; without transparent huge
// pages, or under a sanitizer's allocator, it changes nothing.
void use_huge_pages_for_heap();

}  // namespace pt2lint
