// Follows values back to the placeholders they alias or update (see docs/dataflow.md).
//
// Two questions, both memoized per value so a whole-program sweep stays linear:
//   alias_root(V):    which placeholder's storage V *is* (through views, ops that return
//                     their input unchanged, and in-place ops that return what they wrote);
//   update_origin(V): which placeholder V is the *new value* of, when V is an update: the
//                     alias steps above plus functional updates (`X_out` returns, write-form
//                     ops created from an in-place op, functional twins of in-place ops).
#pragma once

#include <string_view>
#include <unordered_map>
#include <vector>

#include "analysis/dataflow/call_output_alias.h"
#include "analysis/dataflow/node_ops.h"

namespace pt2lint {

class ProgramIndex;

namespace dataflow {

enum class StepKind : unsigned char {
  kPlaceholder,    // the value is a graph input
  kView,           // a view, or an op that returned its input unchanged (to, reshape, ...)
  kInPlace,        // an op that wrote its input in place and returns it (add_, index_copy_)
  kFunctionalOut,  // return `X_out` of a functional op: the new value of its argument X
  kWriteForm,      // index_put/copy/*_scatter/... created from an in-place op: new `self`
  kFunctionalTwin, // functional twin of the in-place op its metadata says created it
  kOpaque,         // a fresh tensor, an unknown op, or a value with no definition
};

std::string_view step_kind_name(StepKind kind);

// One step back from a value.
struct TraceStep {
  StepKind kind = StepKind::kOpaque;
  std::string_view value;      // the value this step explains
  int node = -1;               // its producer (-1 for a placeholder)
  std::string_view next;       // the value the chain continues at
  int placeholder = -1;        // graph input index, for kPlaceholder
};

struct Trace {
  int placeholder = -1;  // graph input index the chain ends at, or -1 (fresh/unknown)
  bool updated = false;  // the chain contains an update step (V is a new value of it)
  int update_node = -1;  // the update step nearest to V
};

class ValueTracer {
 public:
  ValueTracer(const ProgramIndex& index, NodeOps& ops);

  const Trace& alias_root(std::string_view value) { return resolve(value, false); }
  const Trace& update_origin(std::string_view value) { return resolve(value, true); }
  // The one definition of "V is an update of P", shared by the rules, the contract, `diff`
  // and `fix`: the placeholder P whose new value V is, or -1. Either
  //   - the chain from V reaches P through at least one update step (an in-place op, `X_out`,
  //     a write-form op, a functional twin, a decoded functional call), or
  //   - V is a full overwrite computed from the old value of exactly one placeholder P
  //     (overwrite_sources): `amax.copy_(torch.maximum(amax, x))`, a lerp, a where, a clamp.
  // A view of P, or of another state or input, copied over a state is a full overwrite of that
  // state, not an update of P; so is a value computed from two placeholders' old values (use
  // overwrite_sources to ask whether one of them is the target).
  int update_of(std::string_view value);
  // The placeholders whose old values V is computed from elementwise (maximum, minimum, lerp,
  // where, clamp, arithmetic), at most kOverwriteDepth such ops back from V, in ascending order;
  // empty when V is a view, fresh, or made by another op. Independent of update steps.
  std::vector<int> overwrite_sources(std::string_view value);
  static constexpr int kOverwriteDepth = 3;

  // Whether some output of `node` can be an update step at all (its op writes in place,
  // returns `X_out`, is write-form or has an in-place twin). Whole-program sweeps skip the
  // other nodes: their outputs can only be views or fresh values.
  bool may_update(int node);

  // The steps from `value` to where its update-origin (or alias-root) chain ends, for notes.
  std::vector<TraceStep> chain(std::string_view value, bool follow_updates);
  // Whether the update nearest to `value` wrote a view of its state rather than the state
  // itself (`buf[0].add_(x)`, functionalized: an add of a select of `buf`). `value` is then
  // the view's new value, not the state's: the state's whole new value is what writes it back
  // (a *_scatter, a view back to the state's shape, or ops the dataflow cannot follow).
  bool updates_a_view(std::string_view value);

 private:
  const Trace& resolve(std::string_view value, bool follow_updates);
  TraceStep step(std::string_view value, bool follow_updates);
  bool returns_input_unchanged(const ir::Node& node, const opschema::OpSchema& schema,
                               std::string_view input, std::string_view output) const;
  // Update steps whose evidence is metadata are checked only once the chain is known to
  // reach a placeholder, so most nodes never have their metadata read.
  bool confirm(const TraceStep& step);

  // A call of a higher-order op that returns (a view of) one of its operands.
  TraceStep call_output_step(TraceStep s, const ir::Node& node, std::string_view value);

  const ProgramIndex& index_;
  NodeOps& ops_;
  std::unordered_map<std::string_view, Trace> alias_memo_;
  std::unordered_map<std::string_view, Trace> update_memo_;
  std::vector<TraceStep> path_;  // scratch, reused by resolve()
  std::unordered_map<int, std::vector<CallOutputAlias>> call_aliases_;  // by call node
  void collect_overwrite_sources(std::string_view value, int depth, std::vector<int>& out);
};

}  // namespace dataflow
}  // namespace pt2lint
