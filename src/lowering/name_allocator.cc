#include "lowering/name_allocator.h"

namespace pt2lint::lowering {

std::string NameAllocator::fresh(std::string_view stem) {
  std::string candidate(stem);
  if (used_.insert(candidate).second) return candidate;
  int& suffix = next_suffix_[std::string(stem)];
  for (;;) {
    ++suffix;
    candidate = std::string(stem) + "_" + std::to_string(suffix);
    if (used_.insert(candidate).second) return candidate;
  }
}

}  // namespace pt2lint::lowering
