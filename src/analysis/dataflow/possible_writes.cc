#include "analysis/dataflow/possible_writes.h"

#include <map>

#include "analysis/dataflow/subgraph_calls.h"
#include "analysis/program_index.h"

namespace pt2lint::dataflow {
namespace {

void tensor_values(const ir::Argument& arg, std::vector<std::string_view>& out) {
  if (arg.has_as_tensor()) out.push_back(arg.as_tensor().name());
  if (arg.has_as_optional_tensor() && arg.as_optional_tensor().has_as_tensor())
    out.push_back(arg.as_optional_tensor().as_tensor().name());
  if (arg.has_as_tensors())
    for (const ir::TensorArgument& t : arg.as_tensors().items()) out.push_back(t.name());
  if (arg.has_as_optional_tensors())
    for (const ir::OptionalTensorArgument& t : arg.as_optional_tensors().items())
      if (t.has_as_tensor()) out.push_back(t.as_tensor().name());
}

// Whether `node` is an op whose writes pt2lint cannot know in this dialect.
bool writes_unknown(const ProgramIndex& index, NodeOps& ops, int node) {
  if (index.dialect() == Dialect::kTraining) return ops.facts(node).custom_op;
  const std::string_view target = index.graph().nodes(node).target();
  return auto_functionalized_version(target) != AutoFunctionalizedVersion::kNone &&
         ops.auto_functionalized(node) == nullptr;
}

}  // namespace

std::vector<PossibleWrite> possible_writes(const ProgramIndex& index, NodeOps& ops, ValueTracer& tracer,
                                           bool include_parameters) {
  if (index.dialect() != Dialect::kTraining && index.dialect() != Dialect::kAten) return {};
  std::map<int, PossibleWrite> by_placeholder;
  const ir::Graph& graph = index.graph();
  std::vector<std::string_view> values;
  for (int n = 0; n < graph.nodes_size(); ++n) {
    if (!writes_unknown(index, ops, n)) continue;
    values.clear();
    for (const ir::NamedArgument& input : graph.nodes(n).inputs()) tensor_values(input.arg(), values);
    for (std::string_view value : values) {
      const int placeholder = tracer.alias_root(value).placeholder;
      if (placeholder < 0) continue;
      std::string_view name = index.placeholder_names()[placeholder];
      std::optional<int> spec_index = index.input_spec_index(name);
      if (!spec_index) continue;
      const ir::InputSpec& spec = index.signature().input_specs(*spec_index);
      std::string_view kind = input_spec_kind(spec);
      if (kind != "buffer" && kind != "user_input" && !(include_parameters && kind == "parameter")) continue;
      PossibleWrite& entry = by_placeholder[placeholder];
      if (entry.placeholder < 0) {
        entry.placeholder = placeholder;
        entry.input_spec = *spec_index;
        entry.kind = kind;
        entry.target = kind == "user_input" ? name : input_spec_target(spec);
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
      const std::string_view kind = input_spec_kind(spec);
      if (kind != "buffer" && kind != "user_input" && !(include_parameters && kind == "parameter")) continue;
      PossibleWrite& entry = by_placeholder[write.placeholder];
      if (entry.placeholder < 0) {
        entry = {write.placeholder, *spec_index, kind,
                 kind == "user_input" ? index.placeholder_names()[write.placeholder] : input_spec_target(spec), {}, {}};
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
