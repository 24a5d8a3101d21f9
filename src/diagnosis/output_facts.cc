#include "diagnosis/output_facts.h"

#include <fmt/format.h>

#include <algorithm>
#include <set>

#include "analysis/dataflow/tensor_meta_text.h"
#include "analysis/program_index.h"

namespace pt2lint::diagnosis {

bool graph_is_sound(const ProgramIndex& index) {
  const ProgramIndex::SsaFacts& ssa = index.ssa_facts();
  return ssa.reads_defined && ssa.names_unique;
}

ProgramFacts::ProgramFacts(const ProgramIndex& index) : index_(index), flow_(index) {}

std::string_view ProgramFacts::canonical(std::string_view value) const {
  std::optional<ValueDef> def = index_.definition(value);
  if (!def) return {};
  if (def->node < 0) return index_.placeholder_names()[def->placeholder];
  std::vector<std::string_view> names;
  for (const ir::Argument& output : index_.graph().nodes(def->node).outputs())
    collect_value_names(output, names);
  for (std::string_view name : names)
    if (name == value) return name;
  return {};
}

bool ProgramFacts::meta_fits_state(const std::string& meta, int placeholder) const {
  if (meta.empty() || placeholder < 0 || placeholder >= static_cast<int>(index_.placeholder_names().size())) return true;
  const ir::TensorMeta* state = index_.tensor_meta(index_.placeholder_names()[placeholder]);
  return state == nullptr || dataflow::meta_text(*state) == meta;
}

const ValueFact& ProgramFacts::fact(std::string_view name) {
  auto [it, inserted] = facts_.try_emplace(std::string(name));
  ValueFact& fact = it->second;
  if (!inserted) return fact;
  fact.value = std::string(name);
  if (const ir::TensorMeta* meta = index_.tensor_meta(name)) fact.meta = dataflow::meta_text(*meta);
  std::optional<ValueDef> def = index_.definition(name);
  const std::string_view value = canonical(name);
  if (!def || value.empty()) {
    fact.origin = Origin::kUndefined;
    return fact;
  }
  fact.node = def->node;
  const dataflow::Trace& trace = flow_.tracer().update_origin(value);
  if (trace.placeholder >= 0) {
    fact.origin = trace.updated ? Origin::kUpdate : Origin::kAlias;
    fact.placeholder = trace.placeholder;
    return fact;
  }
  // The chain ends at a fresh value: known only when its producer has a schema.
  std::vector<dataflow::TraceStep> chain = flow_.tracer().chain(value, true);
  const int last = chain.empty() ? def->node : chain.back().node;
  fact.origin = last >= 0 && flow_.ops().schema(last) != nullptr ? Origin::kFresh : Origin::kUnknown;
  if (last >= 0) fact.node = last;
  if (fact.origin == Origin::kFresh) fact.overwrite_of = flow_.tracer().update_of(value);
  return fact;
}

void ProgramFacts::find_final_updates() {
  final_updates_found_ = true;
  final_updates_.assign(index_.placeholder_names().size(), {});
  const ir::Graph& graph = index_.graph();
  for (int n = 0; n < graph.nodes_size(); ++n) {
    if (!flow_.tracer().may_update(n)) continue;
    for (const ir::Argument& output : graph.nodes(n).outputs()) {
      if (!output.has_as_tensor()) continue;
      std::string_view value = output.as_tensor().name();
      const dataflow::Trace& trace = flow_.tracer().update_origin(value);
      if (!trace.updated || trace.update_node != n || trace.placeholder < 0) continue;
      // A value of another shape or dtype than the state (`(a + b) * steps`, broadcast) can
      // never be its write-back, so it is not the update that must be written back. But when it
      // is the new value of a view of the state, the state's whole value changed with it: an
      // earlier update of the whole state is no longer its last, and until something writes the
      // view back (a *_scatter, a view back) the graph names no value the dataflow knows is it.
      if (meta_fits_state(fact(value).meta, trace.placeholder))
        final_updates_[trace.placeholder] = value;
      else if (flow_.tracer().updates_a_view(value))
        final_updates_[trace.placeholder] = {};
    }
  }
}

std::string_view ProgramFacts::final_update(int placeholder) {
  if (!final_updates_found_) find_final_updates();
  if (placeholder < 0 || placeholder >= static_cast<int>(final_updates_.size())) return {};
  return final_updates_[placeholder];
}

std::string ProgramFacts::describe(std::string_view value) {
  const ValueFact& f = fact(value);
  std::string head = f.meta.empty() ? fmt::format("`{}`", value) : fmt::format("`{}` {}", value, f.meta);
  switch (f.origin) {
    case Origin::kUpdate:
      return fmt::format("{} is the new value of {}", head, flow_.describe_state(f.placeholder));
    case Origin::kAlias:
      return fmt::format("{} is {} itself (or a view of it), not a new value", head,
                         flow_.describe_state(f.placeholder));
    case Origin::kFresh:
      if (f.overwrite_of >= 0)
        // Said as what dataflow shows, not as a write: the value may be a user output that only
        // reads the state (`x * count`), and the planner decides which it is.
        return fmt::format("{} is computed by {} from {} and no other state: written "
                           "back, it would be that state's full overwrite", head, flow_.describe_node(f.node),
                           flow_.describe_state(f.overwrite_of));
      return fmt::format("{} is not an update of any state: a fresh value computed by {}", head,
                         flow_.describe_node(f.node));
    case Origin::kUnknown:
      return fmt::format("{} comes from {}, an op without a known schema: what it is cannot be told",
                         head, f.node >= 0 ? flow_.describe_node(f.node) : std::string("an unknown op"));
    case Origin::kUndefined:
      return fmt::format("`{}` is defined by no node or graph input", value);
  }
  return head;
}

bool ProgramFacts::read_by_unknown_op(int placeholder) {
  if (placeholder < 0 || placeholder >= static_cast<int>(index_.placeholder_names().size())) return true;
  std::vector<std::string_view> pending{index_.placeholder_names()[placeholder]};
  std::set<int> seen;
  while (!pending.empty()) {
    const std::string_view value = pending.back();
    pending.pop_back();
    for (int node : index_.users(value)) {
      if (!seen.insert(node).second) continue;
      std::vector<std::string_view> outputs;
      for (const ir::Argument& output : index_.graph().nodes(node).outputs()) collect_value_names(output, outputs);
      // An op without a schema of its own whose every result the dataflow ties to a state (the
      // functionalized form of a custom op that mutates its arguments, auto_functionalized_v2,
      // which the tracer models) is no unknown: its results are those states' new values.
      if (flow_.ops().schema(node) == nullptr &&
          (outputs.empty() || std::any_of(outputs.begin(), outputs.end(), [&](std::string_view v) {
             const Origin origin = fact(v).origin;
             return origin != Origin::kUpdate && origin != Origin::kAlias;
           })))
        return true;
      pending.insert(pending.end(), outputs.begin(), outputs.end());
    }
  }
  return false;
}

}  // namespace pt2lint::diagnosis
