// Whether a written state's initial value is part of a program's contract. A buffer whose old
// value is still visible within a call (read before a full overwrite, or only partly written:
// index_copy_, index_put_, slice_scatter, an add_) depends on its initial value; one fully
// overwritten before any read does not. Targets that drop the initial values of mutated
// buffers (ExecuTorch without et_init_buffer, executorch#7279) compute garbage with the first.
#pragma once

#include <string>
#include <string_view>
#include <vector>

#include "core/ir/state_kind.h"

namespace pt2lint {

class ProgramIndex;

namespace dataflow {
class NodeOps;
class ValueTracer;
struct StateWrite;
}  // namespace dataflow

enum class InitialValue {
  kDepends,      // the old value is read, or kept in part
  kOverwritten,  // fully overwritten before any read
  kUndecided,    // the first use is an op pt2lint cannot see into (a subgraph, an unknown op)
};

struct InitialStateFact {
  std::string_view target;  // FQN, or the placeholder name of a user input
  StateKind kind = StateKind::kNone;  // buffer, parameter, user input, tensor constant
  int input_spec = -1;
  InitialValue verdict = InitialValue::kUndecided;
  int node = -1;            // the first node that reads or partly writes it; -1 when none
  std::string why;          // "read by node `mul` (aten.mul.Tensor)", for messages
};

// The fact for one written state.
InitialStateFact initial_state_fact(const ProgramIndex& index, dataflow::NodeOps& ops,
                                    const dataflow::StateWrite& write);
// "depends", "overwritten", "undecided": the JSON report's and `contract`'s key.
std::string_view initial_value_key(InitialValue verdict);

// One fact per written state (dataflow::effective_mutations), in input-spec order.
std::vector<InitialStateFact> initial_state_facts(const ProgramIndex& index, dataflow::NodeOps& ops,
                                                  dataflow::ValueTracer& tracer);

}  // namespace pt2lint
