// Dataflow facts about a program's values that hold whatever its signature says: what each
// graph output really is (the update of which state, a fresh value, ...), its shape and
// dtype, and the last update the graph computes for each state. They are computed whenever
// the graph itself is sound (the SSA facts hold), so findings about a broken layout can say
// what each misplaced value is, and the repair planner can pair values with targets.
#pragma once

#include <string>
#include <string_view>
#include <unordered_map>
#include <vector>

#include "analysis/dataflow/program_dataflow.h"

namespace pt2lint {

class ProgramIndex;

namespace diagnosis {

enum class Origin {
  kUpdate,     // the new value of `placeholder` (a functional update, in-place write, ...)
  kAlias,      // the state `placeholder` itself, or a view of it: no new value
  kFresh,      // a fresh tensor computed by ops with known schemas: not an update of any state
  kUnknown,    // an op without a schema stands in the way: nothing is known
  kUndefined,  // nothing in the graph defines the value
};

struct ValueFact {
  std::string value;
  Origin origin = Origin::kUnknown;
  int placeholder = -1;  // for kUpdate and kAlias
  // For kFresh: the placeholder whose old value alone the value overwrites its state with
  // (`copy_(maximum(amax, x))`; ValueTracer::update_of, the one definition of "update of"),
  // or -1.
  int overwrite_of = -1;
  int node = -1;         // the producer (-1 for a placeholder or an undefined value)
  std::string meta;      // "(1, 1, 90) float32", "" when there is no tensor metadata
};

class ProgramFacts {
 public:
  // Requires index.ssa_facts().reads_defined && names_unique (see graph_is_sound).
  explicit ProgramFacts(const ProgramIndex& index);

  const ProgramIndex& index() const { return index_; }
  dataflow::ProgramDataflow& flow() { return flow_; }
  const ValueFact& fact(std::string_view value);
  // The last value in graph order that is an update of `placeholder`, or "" when the graph
  // computes none. In a functional program that is what must be written back.
  std::string_view final_update(int placeholder);
  // "`view_60` (1, 1, 90) float32 is a fresh value computed by node `view_60` (aten.view.default)".
  std::string describe(std::string_view value);
  // Whether a value computed from state `placeholder` (the state itself included) is read by
  // an op without a known schema: what that op makes of it cannot be told.
  bool read_by_unknown_op(int placeholder);
  // Whether a value of tensor metadata `meta` could be written back to `placeholder`'s state
  // (the same shape and dtype; true when either has no metadata).
  bool meta_fits_state(const std::string& meta, int placeholder) const;

 private:
  void find_final_updates();
  // The same name as a view into the IR, which the tracer's memo keys need; "" if undefined.
  std::string_view canonical(std::string_view value) const;

  const ProgramIndex& index_;
  dataflow::ProgramDataflow flow_;
  std::unordered_map<std::string, ValueFact> facts_;
  std::vector<std::string_view> final_updates_;  // by placeholder
  bool final_updates_found_ = false;
};

// Whether the graph itself (not its signature) is sound enough for dataflow facts.
bool graph_is_sound(const ProgramIndex& index);

}  // namespace diagnosis
}  // namespace pt2lint
