// What a node's metadata says about the in-place op it was created from.
//
// `run_decompositions` replaces `b.add_(1)` by `add(b, 1)`, but keeps the provenance: the
// node's `from_node` metadata lists the nodes it was created from (`"target":
// "aten.add_.Tensor"`), and `torch_fn` names the Python callable (`add__1;
// method_descriptor.add_`). Both survive decomposition; either one is enough.
#pragma once

#include <string_view>

#include "analysis/opschema/op_schema.h"

namespace pt2lint {

class ProgramIndex;

namespace dataflow {

// The node was created from exactly `inplace` (its op is that op's functional twin).
bool created_from(const ProgramIndex& index, int node, const opschema::OpSchema& inplace);
// The node was created from some in-place op or item assignment (`__setitem__`).
bool created_from_any_inplace_op(const ProgramIndex& index, int node);

}  // namespace dataflow
}  // namespace pt2lint
