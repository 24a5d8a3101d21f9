// State that an op of unknown schema may write: soundness where pt2lint cannot know.
//
// ATen ops are functional by contract, but in a TRAINING program a custom op with no known
// schema (`torch.ops.mylib.op.default` missing from the table, --op-schemas and the bundled
// files) may write any tensor it is passed. So may, in an ATEN program, an
// auto_functionalized node whose encoding cannot be decoded (v1 with no schema). A buffer or
// user input (parameters only on request) whose storage reaches such an op, directly or
// through views, *may be written*: the rules, `diff` and `lower` say so instead of guessing.
#pragma once

#include <string_view>
#include <vector>

#include "analysis/dataflow/node_ops.h"
#include "analysis/dataflow/value_tracer.h"
#include "core/ir/state_kind.h"

namespace pt2lint {

class ProgramIndex;

namespace dataflow {

struct PossibleWrite {
  int placeholder = -1;
  int input_spec = -1;
  StateKind kind = StateKind::kNone;    // buffer, user input, parameter, tensor constant
  std::string_view target;  // FQN, or the placeholder name of a user input
  std::vector<int> nodes;   // the unknown ops it is passed to, in graph order
  std::vector<std::string_view> values;  // the value passed to each (the state or a view of it)
};

// In input-spec order. Empty for dialects other than TRAINING and ATEN.
std::vector<PossibleWrite> possible_writes(const ProgramIndex& index, NodeOps& ops, ValueTracer& tracer,
                                           bool include_parameters);

}  // namespace dataflow
}  // namespace pt2lint
