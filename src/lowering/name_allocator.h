// Hands out value and node names that are unique across a graph, the way FX does: the stem
// itself when it is free, else stem_1, stem_2, ...
#pragma once

#include <string>
#include <string_view>
#include <unordered_map>
#include <unordered_set>

namespace pt2lint::lowering {

class NameAllocator {
 public:
  void reserve(std::string_view name) { used_.emplace(name); }
  bool taken(std::string_view name) const { return used_.count(std::string(name)) != 0; }
  // Returns a name nobody holds yet and reserves it.
  std::string fresh(std::string_view stem);

 private:
  std::unordered_set<std::string> used_;
  std::unordered_map<std::string, int> next_suffix_;  // per stem: where the search resumes
};

}  // namespace pt2lint::lowering
