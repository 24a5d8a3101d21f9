// Which nodes have effects pt2lint does not model: the one definition every consumer of
// "possibly written" (check's possible_mutations, PT310, the contract, diff, lower, the
// subgraph scan) shares, so that no op is ever skipped as "no writes" because it is unknown.
//
// A node's effects are unknown when it is
//   - in TRAINING (or a program whose dialect is not ATEN), a `torch.ops.NS.OP.OVERLOAD` op
//     with no schema in the table, the bundled files or --op-schemas;
//   - an auto_functionalized(_v2) or triton_kernel_wrapper_functional call whose encoding
//     cannot be decoded;
//   - a triton_kernel_wrapper_mutation launch whose kernel's writes are not declared
//     (triton_writes.h): the file records only a process-local kernel index;
//   - any other higher-order op pt2lint does not model (not a subgraph op of
//     subgraph_calls.h, not with_effects, not a known pure one).
// Every tensor such a node receives, directly, in a list, in a kwargs dict or nested list,
// may be written by it.
#pragma once

#include <functional>
#include <string>
#include <string_view>
#include <vector>

#include "core/ir/ir_accessors.h"
#include "program.pb.h"
#include "support/status.h"

namespace pt2lint {

class ProgramIndex;

namespace dataflow {

class NodeOps;

// Fails when node `node` of `index` has effects pt2lint does not know, saying why in a clause
// that follows the node's description ("whose schema pt2lint does not know"). `dialect` is the
// dialect of the program the graph belongs to (a subgraph has none of its own).
Status check_effects_known(const ProgramIndex& index, NodeOps& ops, int node, Dialect dialect);

// check_effects_known's clause for an op of unknown schema.
extern const char* const kUnknownSchema;

// Every tensor value of every input of `node`, at any depth of lists and dicts (bounded), in
// order; graph arguments excluded.
std::vector<std::string_view> node_tensor_values(const ir::Node& node);

}  // namespace dataflow
}  // namespace pt2lint
