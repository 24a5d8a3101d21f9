// Higher-order ops (`torch.ops.higher_order.*`) call subgraphs: which caller value each
// subgraph input stands for, and what the subgraphs write through those inputs.
//
// An in-place write, inside a subgraph, to a subgraph input bound to a caller value is a
// write to that value (and so to the state it aliases). Bindings are known for the
// higher-order ops listed in docs/dataflow.md ("Subgraph calls"); for any other op with a
// graph argument, or a binding that does not fit the subgraph, a write inside is
// *undecidable*: pt2lint cannot tell which of the values passed in it reaches.
#pragma once

#include <string>
#include <string_view>
#include <vector>

#include "program.pb.h"
#include "analysis/dataflow/call_output_alias.h"
#include "analysis/dataflow/effective_mutations.h"

namespace pt2lint {

class ProgramIndex;

namespace dataflow {

class ValueTracer;

// One subgraph argument of a call, and the caller value bound to each of its inputs
// ("" for an input bound to no caller tensor: a scalar, a loop index, a score).
struct SubgraphBinding {
  std::string_view name;  // GraphArgument.name, "true_graph_0"
  const ir::Graph* graph = nullptr;
  std::vector<std::string_view> inputs;  // one per graph input, when `bound`
  bool bound = false;  // the op is known and its operands fit the subgraph's inputs
};

struct SubgraphCall {
  std::string_view op;  // "cond", "wrap_with_set_grad_enabled", ...
  bool known = false;   // pt2lint knows how this op binds its subgraph inputs
  bool fits = false;    // known, and its graph arguments sit where the op puts them: a
                        // binding that is not `bound` then means an operand count that differs
  std::vector<SubgraphBinding> subgraphs;
};

// The subgraphs of `node` with their bindings; an empty `subgraphs` for a node without a
// graph argument.
SubgraphCall bind_subgraph_call(const ir::Node& node);

// Whether pt2lint knows how `op` ("cond", ...) binds its subgraph inputs.
bool is_known_subgraph_op(std::string_view op);

// A write pt2lint cannot place: a subgraph writes one of its inputs (or something
// undecidable happens inside), and the call's binding is unknown.
struct UndecidableWrite {
  int node = -1;             // the call node
  std::string_view value;    // a tensor the call is passed
  int placeholder = -1;      // that value's alias root, or -1
  std::string reason;        // "subgraph `body` of `foo` (an op pt2lint does not know) writes ..."
};

struct SubgraphWrites {
  std::vector<InPlaceWrite> writes;     // node = the call node; argument = the subgraph name
  std::vector<UndecidableWrite> possible;
};

// The writes each call node of `index` (index.subgraph_nodes()) makes through its subgraphs,
// nested calls included, down to a fixed depth (deeper nesting is undecidable).
SubgraphWrites subgraph_call_writes(const ProgramIndex& index, ValueTracer& tracer, int depth = 0);

// Output k of a call of a grad-mode or autocast region or invoke_subgraph (see
// call_output_alias.h); an empty `value` means a fresh tensor.
std::vector<CallOutputAlias> call_output_aliases(const ir::Node& node);

// Whether every one of `nodes` (of index's graph) has a graph argument.
bool only_subgraph_calls(const ProgramIndex& index, const std::vector<int>& nodes);

// Every node of `graph` and of its subgraphs, nested, whose schema writes an argument
// (declared or undeclared), as "node `add_` (aten.add_.Tensor)" texts; empty when none.
std::vector<std::string> mutating_nodes_anywhere(const ir::Graph& graph);

}  // namespace dataflow
}  // namespace pt2lint
