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
  std::size_t nesting = 0;       // containers around the deepest leaf: 984 for a leaf in 984 tuples
  bool too_deep = false;         // !ok because the nesting passed the reader's bound
};

// The deepest out_spec nesting torch.export.load accepts: measured with PyTorch 2.11
// (tests/data/device/measurements, docs/device-measurements.md): 984 loads and runs, 985 and
// deeper fail to deserialize (Python's recursion limit, 1000). treespec_loads recurses once
// per level on top of its caller's frames, so the exact limit moves with the depth of the
// stack torch.export.load is called from (a shallower caller loaded 985 in a later run).
// From kTorchRefusedTreeSpecNesting on, no caller can load it under the default limit.
inline constexpr std::size_t kTorchMaxTreeSpecNesting = 984;
inline constexpr std::size_t kTorchRefusedTreeSpecNesting = 1000;

// Node levels beyond this are reported as unreadable rather than followed: above PyTorch's
// limit, so every spec PyTorch loads is read, and low enough that the recursive reader's
// stack stays small (also under ASan).
inline constexpr int kMaxTreeSpecDepth = 1024;

TreeSpecShape read_treespec(std::string_view json, int max_depth = kMaxTreeSpecDepth);

}  // namespace pt2lint
