// Reads the pytree TreeSpec strings of module_call_graph (`in_spec` / `out_spec`):
// protocol-1 JSON `[1, {"type": ..., "context": ..., "children_spec": [...]}]`.
// Only the shape of the tree matters to pt2lint, so this is a small validating
// recursive-descent reader over that JSON subset, with a depth bound instead of a DOM.
#pragma once

#include <cstddef>
#include <string>
#include <string_view>

namespace pt2lint {

struct TreeSpecShape {
  bool ok = false;
  std::string error;             // why it could not be read, when !ok
  std::size_t leaves = 0;        // torch's TreeSpec.num_leaves
  std::string root_type;         // "builtins.tuple", "builtins.dict", ... ; "" for a bare leaf
  std::size_t root_children = 0;
};

// Nesting beyond this is reported as unreadable rather than followed.
inline constexpr int kMaxTreeSpecDepth = 256;

TreeSpecShape read_treespec(std::string_view json, int max_depth = kMaxTreeSpecDepth);

}  // namespace pt2lint
