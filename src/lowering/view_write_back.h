// How a write through a view reaches the view's parent: the matching `*_scatter` op for
// slicing views (slice, select, diagonal, as_strided), the inverse view for views that only
// re-shape (view, transpose, permute, unsqueeze, ...), or nothing at all for ops that
// returned their input unchanged (alias, a no-op `to`, ...).
#pragma once

#include <cstdint>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include "program.pb.h"
#include "support/status.h"

namespace pt2lint::lowering {

struct PlannedNode {
  std::string target;  // serialized, "torch.ops.aten.slice_scatter.default"
  std::string stem;    // name stem for the new value, "slice_scatter"
  std::vector<ir::NamedArgument> inputs;
  std::vector<std::int64_t> sizes;  // an intermediate node of a plan: its (contiguous) output sizes
};

// A tensor input named kPreviousValue stands for the output of the node before it in a plan.
inline constexpr std::string_view kPreviousValue = "\x01previous";

struct ViewWriteBack {
  enum class Kind { kIdentity, kNode, kUnsupported };
  Kind kind = Kind::kUnsupported;
  std::vector<PlannedNode> nodes;  // for kNode, in order; the last one is the new parent
  std::string reason;   // for kUnsupported: why the write cannot be expressed
};

// `view` is the original view node (op `view_op`, e.g. "aten::slice" / "Tensor"); `parent`
// is the current value of its input and `source` the new value of the view. `parent_meta`
// and `view_meta` describe the view's input and output (their sizes drive inverse views).
// Which view ops lower, and how, is view_ops.h's table; the others are refused by name.
ViewWriteBack plan_view_write_back(const ir::Node& view, std::string_view view_op,
                                   std::string_view overload, const std::string& parent,
                                   const std::string& source, const ir::TensorMeta* parent_meta,
                                   const ir::TensorMeta* view_meta);

// Element `element` of a multi-output view (split, chunk, tensor_split, unbind: view_ops.h's
// kElementScatter) spelled as the single view it is: `slice.Tensor(self, dim, start, end)` or
// `select.int(self, dim, element)`, reading the node's own `self` and defining the element's
// name. `elements` describes every element in order (their sizes give the slice bounds).
// Fails, saying why, when the bounds are not static.
Expected<ir::Node> element_view(const ir::Node& node, std::string_view op, int element,
                                const std::vector<const ir::TensorMeta*>& elements,
                                const ir::TensorMeta* parent_meta);

// Ops whose output is their input when no conversion happens. Their schema marks the return
// as an alias, but they may also copy; the caller decides from the tensor metadata.
bool may_return_input(std::string_view op);

}  // namespace pt2lint::lowering
