#include "lowering/argument_values.h"

namespace pt2lint::lowering {

void rewrite_tensor_names(ir::Argument& argument,
                          const std::function<std::string(const std::string&)>& rename) {
  auto optional = [&](ir::OptionalTensorArgument& tensor) {
    if (tensor.has_as_tensor()) tensor.mutable_as_tensor()->set_name(rename(tensor.as_tensor().name()));
  };
  switch (argument.kind_case()) {
    case ir::Argument::kAsTensor:
      argument.mutable_as_tensor()->set_name(rename(argument.as_tensor().name()));
      break;
    case ir::Argument::kAsTensors:
      for (ir::TensorArgument& t : *argument.mutable_as_tensors()->mutable_items())
        t.set_name(rename(t.name()));
      break;
    case ir::Argument::kAsOptionalTensor: optional(*argument.mutable_as_optional_tensor()); break;
    case ir::Argument::kAsOptionalTensors:
      for (ir::OptionalTensorArgument& t : *argument.mutable_as_optional_tensors()->mutable_items())
        optional(t);
      break;
    case ir::Argument::kAsNestedTensors:
      for (ir::TensorArgumentList& list : *argument.mutable_as_nested_tensors()->mutable_items())
        for (ir::TensorArgument& t : *list.mutable_items()) t.set_name(rename(t.name()));
      break;
    case ir::Argument::kAsStringToArgument:
      for (ir::StringToArgumentEntry& entry : *argument.mutable_as_string_to_argument()->mutable_items())
        rewrite_tensor_names(*entry.mutable_value(), rename);
      break;
    default: break;
  }
}

const ir::NamedArgument* find_input(const ir::Node& node, std::string_view name) {
  for (const ir::NamedArgument& input : node.inputs()) {
    if (input.name() == name) return &input;
  }
  return nullptr;
}

std::string_view single_tensor(const ir::Argument& argument) {
  if (argument.has_as_tensor()) return argument.as_tensor().name();
  if (argument.has_as_optional_tensor() && argument.as_optional_tensor().has_as_tensor())
    return argument.as_optional_tensor().as_tensor().name();
  return {};
}

bool is_tensor_list(const ir::Argument& argument) {
  return argument.has_as_tensors() || argument.has_as_optional_tensors() ||
         argument.has_as_nested_tensors();
}

void for_each_output_tensor(const ir::Node& node,
                            const std::function<void(const std::string&)>& visit) {
  for (const ir::Argument& output : node.outputs()) {
    if (output.has_as_tensor()) visit(output.as_tensor().name());
    if (output.has_as_tensors())
      for (const ir::TensorArgument& t : output.as_tensors().items()) visit(t.name());
    if (output.has_as_optional_tensor() && output.as_optional_tensor().has_as_tensor())
      visit(output.as_optional_tensor().as_tensor().name());
    if (output.has_as_optional_tensors())
      for (const ir::OptionalTensorArgument& t : output.as_optional_tensors().items())
        if (t.has_as_tensor()) visit(t.as_tensor().name());
  }
}

}  // namespace pt2lint::lowering
