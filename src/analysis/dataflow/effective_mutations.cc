#include "analysis/dataflow/effective_mutations.h"

#include <algorithm>
#include <map>

#include "analysis/dataflow/subgraph_calls.h"
#include "analysis/dataflow/triton_kernels.h"
#include "analysis/opschema/undeclared_writes.h"
#include "analysis/program_index.h"

namespace pt2lint::dataflow {
namespace {

bool is_state_kind(StateKind kind) {
  return kind == StateKind::kBuffer || kind == StateKind::kParameter || kind == StateKind::kUserInput ||
         kind == StateKind::kTensorConstant;
}

void add_written_values(const ir::Argument& arg, std::vector<std::string_view>& out) {
  if (arg.has_as_tensor()) out.push_back(arg.as_tensor().name());
  if (arg.has_as_optional_tensor() && arg.as_optional_tensor().has_as_tensor())
    out.push_back(arg.as_optional_tensor().as_tensor().name());
  if (arg.has_as_tensors())  // `Tensor(a!)[] self` (_foreach_add_, ...)
    for (const ir::TensorArgument& t : arg.as_tensors().items()) out.push_back(t.name());
}

// A Triton launch writes the parameters its kernel's declaration marks written (triton_kernels.h);
// without a declaration its writes are unknown (op_effects.h), not "none".
void triton_writes(const ProgramIndex& index, int n, ValueTracer& tracer, std::vector<InPlaceWrite>& writes) {
  const TritonLaunch launch = decode_triton_launch(index.graph().nodes(n));
  const std::optional<std::vector<std::string>> declared = declared_triton_writes(launch, index.op_schemas());
  if (!declared) return;
  for (const auto& [param, value] : launch.params) {
    if (value.empty() || std::find(declared->begin(), declared->end(), param) == declared->end()) continue;
    writes.push_back({n, param, value, tracer.alias_root(value).placeholder, {}});
  }
}

}  // namespace

int mutation_target_placeholder(const ProgramIndex& index, const ir::OutputSpec& spec) {
  std::optional<int> input_spec;
  if (spec.has_buffer_mutation()) {
    input_spec = index.input_spec_by_target(StateKind::kBuffer, spec.buffer_mutation().buffer_name());
  } else if (spec.has_parameter_mutation()) {
    input_spec = index.input_spec_by_target(StateKind::kParameter, spec.parameter_mutation().parameter_name());
  } else if (spec.has_user_input_mutation()) {
    input_spec = index.input_spec_index(spec.user_input_mutation().user_input_name());
    if (input_spec && !index.signature().input_specs(*input_spec).has_user_input()) input_spec.reset();
  }
  if (!input_spec) return -1;
  std::string_view placeholder = input_spec_arg_name(index.signature().input_specs(*input_spec));
  std::optional<ValueDef> def = index.definition(placeholder);
  return def && def->placeholder >= 0 ? def->placeholder : -1;
}

std::vector<ResolvedWriteBack> resolved_write_backs(const ProgramIndex& index) {
  std::vector<ResolvedWriteBack> write_backs;
  const ir::GraphSignature& signature = index.signature();
  for (int i = 0; i < signature.output_specs_size(); ++i) {
    const ir::OutputSpec& spec = signature.output_specs(i);
    if (!is_mutation_output(spec)) continue;
    const int target = mutation_target_placeholder(index, spec);
    if (target >= 0) write_backs.push_back({i, target, output_spec_arg_name(spec)});
  }
  return write_backs;
}

std::vector<InPlaceWrite> in_place_writes(const ProgramIndex& index, NodeOps& ops,
                                          ValueTracer& tracer) {
  std::vector<InPlaceWrite> writes = op_writes(index, ops, tracer);
  if (index.subgraph_nodes().empty()) return writes;
  SubgraphWrites inside = subgraph_call_writes(index, tracer);
  for (InPlaceWrite& write : inside.writes) writes.push_back(std::move(write));
  std::stable_sort(writes.begin(), writes.end(),
                   [](const InPlaceWrite& a, const InPlaceWrite& b) { return a.node < b.node; });
  return writes;
}

std::vector<InPlaceWrite> op_writes(const ProgramIndex& index, NodeOps& ops, ValueTracer& tracer) {
  std::vector<InPlaceWrite> writes;
  const ir::Graph& graph = index.graph();
  std::vector<std::string_view> values;
  for (int n = 0; n < graph.nodes_size(); ++n) {
    if (is_triton_mutation(graph.nodes(n).target())) {
      triton_writes(index, n, tracer, writes);
      continue;
    }
    if (!ops.facts(n).may_write) continue;
    // A copy: `record` traces aliases, which may resolve other nodes' ops and grow the table
    // `ops.schema(n)` points into (a use-after-free under ASan otherwise).
    const opschema::OpSchema* found = ops.schema(n);
    if (found == nullptr) continue;
    const opschema::OpSchema schema_copy = *found;
    const opschema::OpSchema* schema = &schema_copy;
    const ir::Node& node = graph.nodes(n);
    auto record = [&](std::string_view argument) {
      for (const ir::NamedArgument& input : node.inputs()) {
        if (input.name() != argument) continue;
        values.clear();
        add_written_values(input.arg(), values);
        for (std::string_view value : values)
          writes.push_back({n, argument, value, tracer.alias_root(value).placeholder, {}});
      }
    };
    if (schema->is_mutable()) {
      for (const auto& arg : schema->arguments())
        if (arg.writes) record(arg.name);
    }
    opschema::for_each_undeclared_write(*schema, node, record);
  }
  return writes;
}

std::vector<StateWrite> effective_mutations(const ProgramIndex& index, NodeOps& ops,
                                            ValueTracer& tracer) {
  std::map<int, StateWrite> by_placeholder;  // ordered by graph input = input-spec order
  auto entry = [&](int placeholder) -> StateWrite* {
    std::string_view name = index.placeholder_names()[placeholder];
    std::optional<int> spec_index = index.input_spec_index(name);
    if (!spec_index) return nullptr;
    const ir::InputSpec& spec = index.signature().input_specs(*spec_index);
    const StateKind kind = state_kind_of(spec);
    if (!is_state_kind(kind)) return nullptr;
    auto [it, inserted] = by_placeholder.try_emplace(placeholder);
    if (inserted) {
      it->second.placeholder = placeholder;
      it->second.input_spec = *spec_index;
      it->second.kind = kind;
      it->second.target = kind == StateKind::kUserInput ? name : input_spec_target(spec);
    }
    return &it->second;
  };

  for (const InPlaceWrite& write : in_place_writes(index, ops, tracer)) {
    if (write.placeholder < 0) continue;
    StateWrite* state = entry(write.placeholder);
    if (state == nullptr) continue;
    if (state->nodes.empty() || state->nodes.back() != write.node) state->nodes.push_back(write.node);
    if (write.value != index.placeholder_names()[write.placeholder])
      state->view_writes.push_back(write.node);
  }
  for (const ResolvedWriteBack& write_back : resolved_write_backs(index)) {
    StateWrite* state = entry(write_back.target);
    if (state == nullptr) continue;
    state->write_backs.push_back(write_back.spec);
    std::optional<ValueDef> def = index.definition(write_back.value);
    if (def && def->node >= 0 &&
        std::find(state->nodes.begin(), state->nodes.end(), def->node) == state->nodes.end())
      state->nodes.push_back(def->node);
  }

  std::vector<StateWrite> result;
  result.reserve(by_placeholder.size());
  for (auto& [placeholder, state] : by_placeholder) result.push_back(std::move(state));
  return result;
}

}  // namespace pt2lint::dataflow
