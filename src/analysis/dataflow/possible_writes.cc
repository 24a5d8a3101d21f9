#include "analysis/dataflow/possible_writes.h"

#include <map>

#include "analysis/dataflow/op_effects.h"
#include "analysis/dataflow/subgraph_calls.h"
#include "analysis/program_index.h"

namespace pt2lint::dataflow {
namespace {

bool reported_kind(StateKind kind, bool include_parameters) {
  return kind == StateKind::kBuffer || kind == StateKind::kUserInput || kind == StateKind::kTensorConstant ||
         (include_parameters && kind == StateKind::kParameter);
}

}  // namespace

std::vector<PossibleWrite> possible_writes(const ProgramIndex& index, NodeOps& ops, ValueTracer& tracer,
                                           bool include_parameters) {
  std::map<int, PossibleWrite> by_placeholder;
  const ir::Graph& graph = index.graph();
  for (int n = 0; n < graph.nodes_size(); ++n) {
    if (check_effects_known(index, ops, n, index.dialect()).ok()) continue;
    for (std::string_view value : node_tensor_values(graph.nodes(n))) {
      const int placeholder = tracer.alias_root(value).placeholder;
      if (placeholder < 0) continue;
      std::string_view name = index.placeholder_names()[placeholder];
      std::optional<int> spec_index = index.input_spec_index(name);
      if (!spec_index) continue;
      const ir::InputSpec& spec = index.signature().input_specs(*spec_index);
      const StateKind kind = state_kind_of(spec);
      if (!reported_kind(kind, include_parameters)) continue;
      PossibleWrite& entry = by_placeholder[placeholder];
      if (entry.placeholder < 0) {
        entry.placeholder = placeholder;
        entry.input_spec = *spec_index;
        entry.kind = kind;
        entry.target = kind == StateKind::kUserInput ? name : input_spec_target(spec);
      }
      if (!entry.nodes.empty() && entry.nodes.back() == n) continue;
      entry.nodes.push_back(n);
      entry.values.push_back(value);
    }
  }
  // Higher-order ops whose subgraph writes cannot be placed (subgraph_calls.h).
  if (!index.subgraph_nodes().empty()) {
    for (const UndecidableWrite& write : subgraph_call_writes(index, tracer).possible) {
      if (write.placeholder < 0) continue;
      const std::optional<int> spec_index = index.input_spec_index(index.placeholder_names()[write.placeholder]);
      if (!spec_index) continue;
      const ir::InputSpec& spec = index.signature().input_specs(*spec_index);
      const StateKind kind = state_kind_of(spec);
      if (!reported_kind(kind, include_parameters)) continue;
      PossibleWrite& entry = by_placeholder[write.placeholder];
      if (entry.placeholder < 0) {
        entry = {write.placeholder, *spec_index, kind,
                 kind == StateKind::kUserInput ? index.placeholder_names()[write.placeholder] : input_spec_target(spec), {}, {}};
      }
      entry.nodes.push_back(write.node);
      entry.values.push_back(write.value);
    }
  }
  std::vector<PossibleWrite> result;
  for (auto& [placeholder, entry] : by_placeholder) result.push_back(std::move(entry));
  return result;
}

}  // namespace pt2lint::dataflow
