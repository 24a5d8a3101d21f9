// How a write through a view reaches the view's parent: the matching `*_scatter` op for
// slicing views (slice, select, diagonal, as_strided), the inverse view for views that only
// re-shape (view, transpose, permute, unsqueeze, ...), or nothing at all for ops that
// returned their input unchanged (alias, a no-op `to`, ...).
#pragma once

#include <string>
#include <string_view>
#include <vector>

#include "program.pb.h"

namespace pt2lint::lowering {

struct PlannedNode {
  std::string target;  // serialized, "torch.ops.aten.slice_scatter.default"
  std::string stem;    // name stem for the new value, "slice_scatter"
  std::vector<ir::NamedArgument> inputs;
};

struct ViewWriteBack {
  enum class Kind { kIdentity, kNode, kUnsupported };
  Kind kind = Kind::kUnsupported;
  PlannedNode node;     // for kNode
  std::string reason;   // for kUnsupported: why the write cannot be expressed
};

// `view` is the original view node (op `view_op`, e.g. "aten::slice" / "Tensor"); `parent`
// is the current value of its input and `source` the new value of the view. `parent_meta`
// describes the view's input (its sizes drive the inverse of a reshape).
ViewWriteBack plan_view_write_back(const ir::Node& view, std::string_view view_op,
                                   std::string_view overload, const std::string& parent,
                                   const std::string& source, const ir::TensorMeta* parent_meta);

// Ops whose output is their input when no conversion happens. Their schema marks the return
// as an alias, but they may also copy; the caller decides from the tensor metadata.
bool may_return_input(std::string_view op);

}  // namespace pt2lint::lowering
