#include "properties/ir_walk.h"

namespace pt2lint::properties {
namespace {

void collect_subgraphs(ir::Graph& graph, std::vector<ir::Graph*>& out) {
  for (ir::Node& node : *graph.mutable_nodes()) {
    for (ir::NamedArgument& input : *node.mutable_inputs()) {
      if (!input.arg().has_as_graph()) continue;
      ir::Graph* sub = input.mutable_arg()->mutable_as_graph()->mutable_graph();
      out.push_back(sub);
      collect_subgraphs(*sub, out);
    }
  }
}

}  // namespace

std::vector<ir::Graph*> all_graphs(ir::Program& program) {
  ir::Graph* main = program.mutable_program()->mutable_graph_module()->mutable_graph();
  std::vector<ir::Graph*> out{main};
  collect_subgraphs(*main, out);
  return out;
}

void for_each_tensor_name(ir::Argument& argument, const std::function<void(std::string&)>& visit) {
  switch (argument.kind_case()) {
    case ir::Argument::kAsTensor: visit(*argument.mutable_as_tensor()->mutable_name()); break;
    case ir::Argument::kAsTensors:
      for (ir::TensorArgument& t : *argument.mutable_as_tensors()->mutable_items()) visit(*t.mutable_name());
      break;
    case ir::Argument::kAsOptionalTensor:
      if (argument.as_optional_tensor().has_as_tensor())
        visit(*argument.mutable_as_optional_tensor()->mutable_as_tensor()->mutable_name());
      break;
    case ir::Argument::kAsOptionalTensors:
      for (ir::OptionalTensorArgument& t : *argument.mutable_as_optional_tensors()->mutable_items())
        if (t.has_as_tensor()) visit(*t.mutable_as_tensor()->mutable_name());
      break;
    case ir::Argument::kAsSymInt:
      if (argument.as_sym_int().has_as_name()) visit(*argument.mutable_as_sym_int()->mutable_as_name());
      break;
    case ir::Argument::kAsStringToArgument:
      for (ir::StringToArgumentEntry& e : *argument.mutable_as_string_to_argument()->mutable_items())
        for_each_tensor_name(*e.mutable_value(), visit);
      break;
    default: break;
  }
}

void for_each_read(ir::Node& node, const std::function<void(std::string&)>& visit) {
  for (ir::NamedArgument& input : *node.mutable_inputs()) for_each_tensor_name(*input.mutable_arg(), visit);
}

void for_each_defined(ir::Node& node, const std::function<void(std::string&)>& visit) {
  for (ir::Argument& output : *node.mutable_outputs()) for_each_tensor_name(output, visit);
}

std::string* output_spec_value(ir::OutputSpec& spec) {
  switch (spec.kind_case()) {
    case ir::OutputSpec::kUserOutput:
      return spec.user_output().arg().has_as_tensor()
                 ? spec.mutable_user_output()->mutable_arg()->mutable_as_tensor()->mutable_name()
                 : nullptr;
    case ir::OutputSpec::kLossOutput: return spec.mutable_loss_output()->mutable_arg()->mutable_name();
    case ir::OutputSpec::kBufferMutation: return spec.mutable_buffer_mutation()->mutable_arg()->mutable_name();
    case ir::OutputSpec::kParameterMutation:
      return spec.mutable_parameter_mutation()->mutable_arg()->mutable_name();
    case ir::OutputSpec::kUserInputMutation:
      return spec.mutable_user_input_mutation()->mutable_arg()->mutable_name();
    case ir::OutputSpec::kGradientToParameter:
      return spec.mutable_gradient_to_parameter()->mutable_arg()->mutable_name();
    case ir::OutputSpec::kGradientToUserInput:
      return spec.mutable_gradient_to_user_input()->mutable_arg()->mutable_name();
    case ir::OutputSpec::kToken: return spec.mutable_token()->mutable_arg()->mutable_name();
    default: return nullptr;
  }
}

std::string* mutation_target(ir::OutputSpec& spec) {
  switch (spec.kind_case()) {
    case ir::OutputSpec::kBufferMutation: return spec.mutable_buffer_mutation()->mutable_buffer_name();
    case ir::OutputSpec::kParameterMutation: return spec.mutable_parameter_mutation()->mutable_parameter_name();
    case ir::OutputSpec::kUserInputMutation: return spec.mutable_user_input_mutation()->mutable_user_input_name();
    default: return nullptr;
  }
}

std::string* input_spec_state(ir::InputSpec& spec) {
  switch (spec.kind_case()) {
    case ir::InputSpec::kBuffer: return spec.mutable_buffer()->mutable_buffer_name();
    case ir::InputSpec::kParameter: return spec.mutable_parameter()->mutable_parameter_name();
    case ir::InputSpec::kTensorConstant: return spec.mutable_tensor_constant()->mutable_tensor_constant_name();
    case ir::InputSpec::kUserInput:
      return spec.user_input().arg().has_as_tensor()
                 ? spec.mutable_user_input()->mutable_arg()->mutable_as_tensor()->mutable_name()
                 : nullptr;
    default: return nullptr;
  }
}

}  // namespace pt2lint::properties
