// Every view op of the schema table (a return annotated `Tensor(a)` that aliases an argument
// without writing it), and how the reference lowering carries a write through it back to the
// base: a `*_scatter` op, an inverse view, nothing (the op returned its input), a scatter per
// element (split, chunk, unbind), or not at all, refused by name with the reason.
#pragma once

#include <string>
#include <string_view>

#include "analysis/opschema/op_schema.h"

namespace pt2lint::lowering {

enum class ViewLowering {
  kScatter,         // slice -> slice_scatter, narrow -> slice_scatter, select, diagonal, as_strided
  kInverseView,     // view, reshape, transpose, permute, movedim, unsqueeze, squeeze, expand, unfold, ...
  kIdentity,        // alias, detach, a no-op `to` or `contiguous`: the view is its input
  kElementScatter,  // split, chunk, unbind, tensor_split: each element is a slice or a select
  kRefused,
};

struct ViewLoweringRule {
  ViewLowering kind = ViewLowering::kRefused;
  std::string reason;  // for kRefused, and for the conditions under which a lowering applies
};

// Whether `schema` is a view op: some return aliases an argument and neither is written.
bool is_view_op(const opschema::OpSchema& schema);

// How writes through `schema` are lowered. Only meaningful for is_view_op(schema).
ViewLoweringRule view_lowering(const opschema::OpSchema& schema);

}  // namespace pt2lint::lowering
