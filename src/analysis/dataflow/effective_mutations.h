// The effective mutation set of a program: which buffers, parameters, user inputs and
// tensor constants it writes, and by which nodes (see docs/dataflow.md).
//
// In-place writes (TRAINING dialect: `add_`, `index_copy_`, a `batch_norm` in training
// mode, ...) count when the written argument aliases a placeholder, directly or through
// views. Declared write-backs (`buffer_mutation`, `parameter_mutation`,
// `user_input_mutation` outputs, ATEN dialect) count for their target. For a TRAINING
// program this is exactly the set of write-backs PyTorch's functionalization produces.
#pragma once

#include <string_view>
#include <vector>

#include "analysis/dataflow/node_ops.h"
#include "analysis/dataflow/value_tracer.h"
#include "core/ir/state_kind.h"

namespace pt2lint {

class ProgramIndex;

namespace dataflow {

struct StateWrite {
  int placeholder = -1;        // graph input index
  int input_spec = -1;         // index into signature.input_specs
  StateKind kind = StateKind::kNone;       // buffer, parameter, user input, tensor constant
  std::string_view target;     // FQN, or the placeholder name of a user input
  std::vector<int> nodes;      // in-place writers in graph order, then write-back producers
  std::vector<int> view_writes;  // the in-place writers that reached it through a view
  std::vector<int> write_backs;  // output spec indices that write it back
};

struct InPlaceWrite {
  int node = -1;
  std::string_view argument;  // the schema argument written ("self", "running_mean"), or
                              // the subgraph name for a write inside a higher-order op
  std::string_view value;     // the value passed for it
  int placeholder = -1;       // the placeholder its storage is, or -1 (a fresh tensor)
  std::string via;            // for a write inside a subgraph: the node there that writes
};

// Every in-place write of the program, declared by its schema or listed in
// opschema::undeclared_writes(), or made inside the subgraph of a higher-order op to a value
// it is passed (see subgraph_calls.h), in graph order. Other ops without a schema are skipped.
std::vector<InPlaceWrite> in_place_writes(const ProgramIndex& index, NodeOps& ops,
                                          ValueTracer& tracer);
// The same, without the writes made inside subgraphs.
std::vector<InPlaceWrite> op_writes(const ProgramIndex& index, NodeOps& ops, ValueTracer& tracer);

// The effective mutation set, in input-spec order.
std::vector<StateWrite> effective_mutations(const ProgramIndex& index, NodeOps& ops,
                                            ValueTracer& tracer);

// The placeholder an output spec's mutation target names (`buffer_name` of a buffer input,
// `user_input_name` of a user input, ...), or -1 when it resolves to none.
int mutation_target_placeholder(const ProgramIndex& index, const ir::OutputSpec& spec);

// A mutation output whose target resolves to a placeholder.
struct ResolvedWriteBack {
  int spec;                // index into output_specs
  int target;              // the placeholder written back
  std::string_view value;  // the value the spec writes back
};

// Every mutation output whose target resolves, in output order. The others are
// mutation-target-resolves' to report.
std::vector<ResolvedWriteBack> resolved_write_backs(const ProgramIndex& index);

}  // namespace dataflow
}  // namespace pt2lint
