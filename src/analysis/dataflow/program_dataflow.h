// The dataflow view of one program that the dataflow rules share: resolved op schemas, the
// memoized value tracer, and the state each placeholder stands for.
#pragma once

#include <string>
#include <string_view>

#include "analysis/dataflow/node_ops.h"
#include "analysis/dataflow/value_tracer.h"
#include "core/ir/state_kind.h"

namespace pt2lint {

class ProgramIndex;

namespace dataflow {

// What a placeholder stands for, from its input spec.
struct PlaceholderState {
  StateKind kind = StateKind::kNone;  // kNone: a placeholder with no input spec
  std::string_view target;       // FQN; the placeholder name for a user input
  std::string_view placeholder;  // graph input name
  int input_spec = -1;
};

class ProgramDataflow {
 public:
  explicit ProgramDataflow(const ProgramIndex& index);

  const ProgramIndex& index() const { return index_; }
  NodeOps& ops() { return ops_; }
  ValueTracer& tracer() { return tracer_; }

  PlaceholderState state(int placeholder) const;
  // "buffer `layers.0.k_cache`", "user input `x`", "tensor constant `c`".
  std::string describe_state(int placeholder) const;
  // "node `index_put` (aten.index_put.default)".
  std::string describe_node(int node) const;
  // One note per step of `chain`, naming the nodes and ops from a value back to its origin.
  std::vector<std::string> chain_notes(const std::vector<TraceStep>& chain) const;
  // The serialized target with `torch.ops.` dropped: "aten.index_copy_.default".
  std::string_view short_target(int node) const;

 private:
  const ProgramIndex& index_;
  NodeOps ops_;
  ValueTracer tracer_;
};

}  // namespace dataflow
}  // namespace pt2lint
