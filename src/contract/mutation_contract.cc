#include "contract/mutation_contract.h"

#include <fmt/format.h>

#include "analysis/dataflow/effective_mutations.h"
#include "analysis/dataflow/possible_writes.h"
#include "analysis/dataflow/program_dataflow.h"
#include "analysis/dataflow/tensor_meta_text.h"
#include "analysis/program_index.h"
#include "analysis/state/initial_state.h"
#include "analysis/state/shared_state.h"
#include "analysis/state/state_storage.h"

namespace pt2lint {
namespace {

std::string strip_whitespace(std::string_view text) {
  std::string out;
  bool in_string = false;
  for (std::size_t i = 0; i < text.size(); ++i) {
    const char c = text[i];
    if (in_string) {
      out += c;
      if (c == '\\' && i + 1 < text.size()) out += text[++i];
      else if (c == '"') in_string = false;
      continue;
    }
    if (c == '"') in_string = true;
    if (c != ' ' && c != '\n' && c != '\t' && c != '\r') out += c;
  }
  return out;
}

// Built whole rather than assigned field by field: GCC 12's -Wrestrict misfires on
// assigning a short literal to a member string here (GCC bug 105329).
ValueFacts tensor_facts(const ProgramIndex& index, std::string_view value) {
  const ir::TensorMeta* meta = index.tensor_meta(value);
  if (meta == nullptr) return ValueFacts{"tensor", "?", "?"};
  return ValueFacts{"tensor", dataflow::shape_text(*meta), std::string(dataflow::dtype_name(meta->dtype()))};
}

ValueFacts argument_facts(const ProgramIndex& index, const ir::Argument& argument) {
  ValueFacts facts;
  switch (argument.kind_case()) {
    case ir::Argument::kAsTensor: return tensor_facts(index, argument.as_tensor().name());
    case ir::Argument::kAsSymInt: facts.kind = "sym_int"; break;
    case ir::Argument::kAsSymFloat: facts.kind = "sym_float"; break;
    case ir::Argument::kAsSymBool: facts.kind = "sym_bool"; break;
    case ir::Argument::kAsInt: facts.kind = fmt::format("int {}", argument.as_int()); break;
    case ir::Argument::kAsFloat: facts.kind = fmt::format("float {}", argument.as_float()); break;
    case ir::Argument::kAsBool: facts.kind = argument.as_bool() ? "bool true" : "bool false"; break;
    case ir::Argument::kAsString: facts.kind = "string"; break;
    case ir::Argument::kAsNone: facts.kind = "none"; break;
    case ir::Argument::kAsCustomObj: facts.kind = "custom_obj"; break;
    default: facts.kind = "other"; break;
  }
  return facts;
}

// The value output spec `i` carries at run time: graph output i, because PyTorch pairs specs
// with outputs by position; the spec's own name only when the graph has no output i.
ir::Argument output_value(const ProgramIndex& index, int i) {
  const ir::Graph& graph = index.graph();
  if (i < graph.outputs_size()) return graph.outputs(i);
  ir::Argument argument;
  const std::string_view name = output_spec_arg_name(index.signature().output_specs(i));
  if (!name.empty()) argument.mutable_as_tensor()->set_name(std::string(name));
  return argument;
}

// The tracer memoizes by string_view, so it must be handed names that live in the program.
std::string_view stable_name(const ProgramIndex& index, std::string_view value) {
  if (value.empty()) return {};
  const std::optional<ValueDef> def = index.definition(value);
  if (!def) return {};
  if (def->placeholder >= 0) return index.placeholder_names()[def->placeholder];
  std::vector<std::string_view> names;
  for (const ir::Argument& output : index.graph().nodes(def->node).outputs()) collect_value_names(output, names);
  for (std::string_view name : names)
    if (name == value) return name;
  return {};
}

ValueFacts state_facts(const ProgramIndex& index, int placeholder) {
  if (placeholder < 0) return {};
  return tensor_facts(index, index.placeholder_names()[placeholder]);
}

// The gradient output spec `i` declares, with `value` the graph output it carries.
GradientPromise gradient_promise(const ProgramIndex& index, const ir::OutputSpec& spec, const ir::Argument& value,
                                 int i) {
  GradientPromise gradient;
  std::optional<int> input;
  if (spec.has_gradient_to_parameter()) {
    gradient.kind = StateKind::kParameter;
    gradient.target = spec.gradient_to_parameter().parameter_name();
    input = index.input_spec_by_target(StateKind::kParameter, gradient.target);
    for (std::string_view alias : index.storage().aliases_of(gradient.target)) gradient.aliases.emplace_back(alias);
  } else {
    gradient.kind = StateKind::kUserInput;
    gradient.target = spec.gradient_to_user_input().user_input_name();
    input = index.input_spec_index(gradient.target);
    if (input && !index.signature().input_specs(*input).has_user_input()) input.reset();
  }
  if (input) gradient.input = tensor_facts(index, input_spec_arg_name(index.signature().input_specs(*input)));
  gradient.value = argument_facts(index, value);
  gradient.value_name = std::string(argument_value_name(value));
  gradient.output_spec = i;
  return gradient;
}

}  // namespace

std::string ValueFacts::text() const {
  if (kind != "tensor") return kind;
  return shape + " " + dtype;
}

bool ProgramContract::same_promises(const ProgramContract& other) const {
  return user_inputs == other.user_inputs && user_outputs == other.user_outputs &&
         out_spec == other.out_spec && writes == other.writes && gradients == other.gradients;
}

ProgramContract derive_contract(const ir::Program& program) { return derive_contract(program, OpKnowledge{}); }

ProgramContract derive_contract(const ir::Program& program, const OpKnowledge& ops) {
  ProgramIndex index(program);
  index.set_op_knowledge(ops);
  dataflow::ProgramDataflow flow(index);
  ProgramContract contract;
  contract.program = program.name();
  const auto& verifiers = program.program().verifiers();
  contract.dialect = !verifiers.empty() ? verifiers[0] : program.program().dialect();

  const ir::GraphSignature& signature = index.signature();
  for (int i = 0; i < signature.input_specs_size(); ++i) {
    const ir::InputSpec& spec = signature.input_specs(i);
    if (spec.has_tensor_constant()) contract.constants.push_back(spec.tensor_constant().tensor_constant_name());
    if (spec.has_user_input()) {
      contract.user_inputs.push_back({std::string(input_spec_arg_name(spec)),
                                      argument_facts(index, spec.user_input().arg()), i});
    } else if (spec.has_constant_input()) {
      ValueFacts facts;
      facts.kind = "constant";
      contract.user_inputs.push_back({spec.constant_input().name(), facts, i});
    }
  }
  for (const ir::ModuleCallEntry& entry : program.program().graph_module().module_call_graph()) {
    if (entry.fqn().empty() && entry.has_signature()) {
      contract.out_spec = strip_whitespace(entry.signature().out_spec());
      break;
    }
  }

  auto base_of = [&](std::string_view value) -> std::string {
    const std::string_view stable = stable_name(index, value);
    if (stable.empty()) return {};
    const int source = flow.tracer().update_of(stable);
    if (source < 0) return {};
    return std::string(flow.state(source).target);
  };

  for (int i = 0; i < signature.output_specs_size(); ++i) {
    const ir::OutputSpec& spec = signature.output_specs(i);
    const ir::Argument value = output_value(index, i);
    if (spec.has_loss_output() || spec.has_gradient_to_parameter() || spec.has_gradient_to_user_input())
      contract.joint = true;
    if (spec.has_user_output() || spec.has_loss_output()) {
      contract.user_outputs.push_back({argument_facts(index, value)});
      continue;
    }
    if (spec.has_gradient_to_parameter() || spec.has_gradient_to_user_input()) {
      contract.gradients.push_back(gradient_promise(index, spec, value, i));
      continue;
    }
    if (!is_mutation_output(spec)) continue;
    WritePromise write;
    write.target = std::string(output_spec_target(spec));
    write.kind = mutation_state_kind(spec);
    write.state = state_facts(index, dataflow::mutation_target_placeholder(index, spec));
    write.value_name = std::string(argument_value_name(value));
    write.base = base_of(write.value_name);
    write.value = argument_facts(index, value);
    write.output_spec = i;
    contract.writes.push_back(std::move(write));
  }

  // In-place writes (TRAINING dialect) are their own write-back: the value written back is
  // the state's final content, an update of the state itself, shaped like it.
  for (const dataflow::StateWrite& state : dataflow::effective_mutations(index, flow.ops(), flow.tracer())) {
    if (!state.write_backs.empty()) continue;
    WritePromise write;
    write.target = std::string(state.target);
    write.kind = state.kind;
    write.state = state_facts(index, state.placeholder);
    write.base = write.target;
    write.value = write.state;
    if (!state.nodes.empty()) write.value_name = std::string(index.node_name(state.nodes.back()));
    contract.writes.push_back(std::move(write));
  }
  // Parameters too, whatever --unknown-ops-parameters says: that flag quiets a warning, while a
  // contract that omitted a possible parameter write would let `diff` call a change "none".
  for (const dataflow::PossibleWrite& state :
       dataflow::possible_writes(index, flow.ops(), flow.tracer(), /*include_parameters=*/true)) {
    PossibleWritePromise possible{std::string(state.target), state.kind, {}};
    for (int node : state.nodes) possible.ops.emplace_back(flow.short_target(node));
    contract.possible_writes.push_back(std::move(possible));
  }
  for (const InitialStateFact& fact : initial_state_facts(index, flow.ops(), flow.tracer())) {
    for (WritePromise& write : contract.writes) {
      if (write.target != fact.target || write.kind != fact.kind) continue;
      write.initial_value = std::string(initial_value_key(fact.verdict));
      write.initial_value_why = fact.why;
    }
  }
  for (WritePromise& write : contract.writes) {
    if (write.kind == StateKind::kUserInput) continue;
    for (std::string_view alias : index.storage().aliases_of(write.target))
      write.aliases.emplace_back(alias);
  }
  return contract;
}

std::vector<SharedStatePromise> derive_shared_state(const std::vector<const ir::Program*>& programs,
                                                    const OpKnowledge& ops) {
  std::vector<SharedStatePromise> promises;
  for (const SharedState& state : shared_state(programs, ops)) {
    SharedStatePromise promise;
    promise.target = std::string(state.fqn);
    promise.kind = state.uses.front().kind;
    for (const SharedStateUse& use : state.uses) {
      if (use.written) promise.writers.push_back(use.program->name());
      else if (use.read) promise.readers.push_back(use.program->name());
    }
    // Weights every program only reads are shared too, but say nothing of order: only state
    // some program writes is listed.
    if (!promise.writers.empty()) promises.push_back(std::move(promise));
  }
  return promises;
}

}  // namespace pt2lint
