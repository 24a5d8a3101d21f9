// The end of a functionalize() run: one mutation output per written buffer, parameter and user
// input, in input-spec order after the tokens and before the user outputs; the graph's nodes and
// tensor_values rebuilt from the lowered nodes; submodule call signatures renamed to the values
// that now hold what they named.
#include <algorithm>
#include <string>
#include <utility>
#include <vector>

#include <fmt/format.h>

#include "analysis/program_index.h"
#include "lowering/argument_values.h"
#include "lowering/functionalizer.h"

namespace pt2lint::lowering {

void Functionalizer::assemble_outputs(ir::GraphModule& module) {
  const ir::GraphSignature& signature = program_.graph_module().signature();
  struct Output {
    ir::OutputSpec spec;
    ir::Argument value;
    int order = 0;  // input-spec index of a mutation's target
  };
  std::vector<Output> tokens, mutations, rest;
  for (int i = 0; i < signature.output_specs_size(); ++i) {
    Output o{signature.output_specs(i), {}, 0};
    if (i < graph_.outputs_size()) o.value = graph_.outputs(i);
    auto reader = [&](const std::string& v) { return read(v); };
    rewrite_tensor_names(o.value, reader);
    rewrite_spec_values(o.spec, reader);
    if (o.spec.has_token()) {
      tokens.push_back(std::move(o));
    } else if (is_mutation_output(o.spec)) {
      const std::string target(output_spec_target(o.spec));
      o.order = input_spec_index_of_target(signature, o.spec);
      if (o.order >= 0) {
        const std::string placeholder(input_spec_arg_name(signature.input_specs(o.order)));
        if (writes_to(placeholder) > 0) {
          throw LoweringError{fmt::format(
              "the program already declares a write-back of '{}' and also writes it in place",
              target)};
        }
      }
      mutations.push_back(std::move(o));
    } else {
      rest.push_back(std::move(o));
    }
  }
  for (int k = 0; k < signature.input_specs_size(); ++k) {
    const ir::InputSpec& in = signature.input_specs(k);
    const std::string placeholder(input_spec_arg_name(in));
    if (placeholder.empty() || writes_to(placeholder) == 0) continue;
    const std::string value = seen_.at(placeholder).current;
    Output o;
    o.order = k;
    o.value.mutable_as_tensor()->set_name(value);
    if (in.has_buffer()) {
      auto* spec = o.spec.mutable_buffer_mutation();
      spec->mutable_arg()->set_name(value);
      spec->set_buffer_name(in.buffer().buffer_name());
    } else if (in.has_parameter()) {
      auto* spec = o.spec.mutable_parameter_mutation();
      spec->mutable_arg()->set_name(value);
      spec->set_parameter_name(in.parameter().parameter_name());
    } else if (in.has_user_input()) {
      auto* spec = o.spec.mutable_user_input_mutation();
      spec->mutable_arg()->set_name(value);
      spec->set_user_input_name(placeholder);
    } else if (in.has_tensor_constant()) {
      throw LoweringError{fmt::format(
          "the program writes the tensor constant '{}'; constants have no write-back, so no "
          "lowering can preserve this write (register the tensor as a buffer)",
          in.tensor_constant().tensor_constant_name())};
    } else {
      throw LoweringError{fmt::format("the program writes its {} input '{}'", state_kind_name(state_kind_of(in)),
                                      placeholder)};
    }
    mutations.push_back(std::move(o));
  }
  std::stable_sort(mutations.begin(), mutations.end(),
                   [](const Output& a, const Output& b) { return a.order < b.order; });

  ir::GraphSignature& out_signature = *module.mutable_signature();
  out_signature.clear_output_specs();
  ir::Graph& graph = *module.mutable_graph();
  graph.clear_outputs();
  for (auto* group : {&tokens, &mutations, &rest}) {
    for (Output& o : *group) {
      *out_signature.add_output_specs() = std::move(o.spec);
      *graph.add_outputs() = std::move(o.value);
    }
  }
}

int Functionalizer::input_spec_index_of_target(const ir::GraphSignature& signature, const ir::OutputSpec& spec) {
  const std::string_view target = output_spec_target(spec);
  for (int k = 0; k < signature.input_specs_size(); ++k) {
    const ir::InputSpec& in = signature.input_specs(k);
    if ((spec.has_buffer_mutation() && in.has_buffer() && in.buffer().buffer_name() == target) ||
        (spec.has_parameter_mutation() && in.has_parameter() && in.parameter().parameter_name() == target) ||
        (spec.has_user_input_mutation() && in.has_user_input() && input_spec_arg_name(in) == target))
      return k;
  }
  return -1;
}

void Functionalizer::rewrite_spec_values(ir::OutputSpec& spec,
                                const std::function<std::string(const std::string&)>& rename) {
  auto tensor = [&](ir::TensorArgument* arg) { arg->set_name(rename(arg->name())); };
  switch (spec.kind_case()) {
    case ir::OutputSpec::kUserOutput: rewrite_tensor_names(*spec.mutable_user_output()->mutable_arg(), rename); break;
    case ir::OutputSpec::kLossOutput: tensor(spec.mutable_loss_output()->mutable_arg()); break;
    case ir::OutputSpec::kBufferMutation: tensor(spec.mutable_buffer_mutation()->mutable_arg()); break;
    case ir::OutputSpec::kGradientToParameter: tensor(spec.mutable_gradient_to_parameter()->mutable_arg()); break;
    case ir::OutputSpec::kGradientToUserInput: tensor(spec.mutable_gradient_to_user_input()->mutable_arg()); break;
    case ir::OutputSpec::kUserInputMutation: tensor(spec.mutable_user_input_mutation()->mutable_arg()); break;
    case ir::OutputSpec::kParameterMutation: tensor(spec.mutable_parameter_mutation()->mutable_arg()); break;
    default: break;
  }
}

void Functionalizer::rebuild_graph(ir::Graph& graph) {
  graph.clear_nodes();
  graph.clear_tensor_values();
  std::vector<std::string> defined;
  for (const ir::Argument& input : graph.inputs()) {
    std::string_view name = single_tensor(input);
    if (!name.empty()) defined.emplace_back(name);
  }
  for (ir::Node& node : nodes_) {
    for_each_output_tensor(node, [&](const std::string& name) { defined.push_back(name); });
    *graph.add_nodes() = std::move(node);
  }
  for (const std::string& name : defined) {
    if (defined_.insert(name).second) {
      if (const ir::TensorMeta* m = meta(name)) {
        ir::TensorMetaEntry* entry = graph.add_tensor_values();
        entry->set_key(name);
        *entry->mutable_value() = *m;
      }
    }
  }
}

// Submodule call signatures name graph values; those that no longer exist (the outputs of
// in-place ops) are renamed to what now holds them.
void Functionalizer::rename_call_graph(ir::GraphModule& module) {
  auto rename = [&](const std::string& v) { return defined_.count(v) ? v : read(v); };
  for (ir::ModuleCallEntry& entry : *module.mutable_module_call_graph()) {
    if (!entry.has_signature()) continue;
    for (ir::Argument& a : *entry.mutable_signature()->mutable_inputs()) rewrite_tensor_names(a, rename);
    for (ir::Argument& a : *entry.mutable_signature()->mutable_outputs()) rewrite_tensor_names(a, rename);
  }
}

}  // namespace pt2lint::lowering
