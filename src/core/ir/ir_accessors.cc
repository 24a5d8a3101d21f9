#include "core/ir/ir_accessors.h"

namespace pt2lint {
namespace {

void add_name(std::string_view name, std::vector<std::string_view>& out) {
  if (!name.empty()) out.push_back(name);
}

}  // namespace

std::string_view dialect_name(Dialect dialect) {
  switch (dialect) {
    case Dialect::kTraining: return "TRAINING";
    case Dialect::kAten: return "ATEN";
    case Dialect::kOther: return "OTHER";
    case Dialect::kUnknown: return "";
  }
  return "";
}

Dialect dialect_of(const ir::ExportedProgram& program) {
  Dialect dialect = Dialect::kUnknown;
  for (const std::string& v : program.verifiers()) {
    if (v == "TRAINING") dialect = Dialect::kTraining;
    else if (v == "ATEN") dialect = Dialect::kAten;
    else if (dialect == Dialect::kUnknown) dialect = Dialect::kOther;
  }
  if (dialect == Dialect::kUnknown && !program.dialect().empty()) {
    dialect = program.dialect() == "TRAINING" ? Dialect::kTraining
              : program.dialect() == "ATEN"   ? Dialect::kAten
                                              : Dialect::kOther;
  }
  return dialect;
}

void collect_value_names(const ir::Argument& a, std::vector<std::string_view>& out) {
  using K = ir::Argument::KindCase;
  switch (a.kind_case()) {
    case K::kAsTensor: add_name(a.as_tensor().name(), out); break;
    case K::kAsTensors:
      for (const auto& t : a.as_tensors().items()) add_name(t.name(), out);
      break;
    case K::kAsSymInt:
      if (a.as_sym_int().has_as_name()) add_name(a.as_sym_int().as_name(), out);
      break;
    case K::kAsSymInts:
      for (const auto& s : a.as_sym_ints().items())
        if (s.has_as_name()) add_name(s.as_name(), out);
      break;
    case K::kAsSymBool:
      if (a.as_sym_bool().has_as_name()) add_name(a.as_sym_bool().as_name(), out);
      break;
    case K::kAsSymBools:
      for (const auto& s : a.as_sym_bools().items())
        if (s.has_as_name()) add_name(s.as_name(), out);
      break;
    case K::kAsSymFloat:
      if (a.as_sym_float().has_as_name()) add_name(a.as_sym_float().as_name(), out);
      break;
    case K::kAsSymFloats:
      for (const auto& s : a.as_sym_floats().items())
        if (s.has_as_name()) add_name(s.as_name(), out);
      break;
    case K::kAsOptionalTensors:
      for (const auto& t : a.as_optional_tensors().items())
        if (t.has_as_tensor()) add_name(t.as_tensor().name(), out);
      break;
    case K::kAsOptionalTensor:
      if (a.as_optional_tensor().has_as_tensor())
        add_name(a.as_optional_tensor().as_tensor().name(), out);
      break;
    case K::kAsCustomObj: add_name(a.as_custom_obj().name(), out); break;
    case K::kAsNestedTensors:
      for (const auto& list : a.as_nested_tensors().items())
        for (const auto& t : list.items()) add_name(t.name(), out);
      break;
    case K::kAsStringToArgument:
      for (const auto& entry : a.as_string_to_argument().items())
        collect_value_names(entry.value(), out);
      break;
    default: break;
  }
}

std::string_view argument_value_name(const ir::Argument& a) {
  // Every branch returns a view of the message's own string: a `cond ? str : ""` here would
  // build a temporary std::string and hand back a dangling view.
  constexpr std::string_view kNone;
  using K = ir::Argument::KindCase;
  switch (a.kind_case()) {
    case K::kAsTensor: return a.as_tensor().name();
    case K::kAsSymInt:
      if (a.as_sym_int().has_as_name()) return a.as_sym_int().as_name();
      return kNone;
    case K::kAsSymBool:
      if (a.as_sym_bool().has_as_name()) return a.as_sym_bool().as_name();
      return kNone;
    case K::kAsSymFloat:
      if (a.as_sym_float().has_as_name()) return a.as_sym_float().as_name();
      return kNone;
    case K::kAsCustomObj: return a.as_custom_obj().name();
    case K::kAsOptionalTensor:
      if (a.as_optional_tensor().has_as_tensor()) return a.as_optional_tensor().as_tensor().name();
      return kNone;
    default: return kNone;
  }
}

std::string_view fx_node_name(const ir::Node& node) {
  if (node.has_name() && !node.name().empty()) return node.name();
  std::vector<std::string_view> names;
  for (const ir::Argument& output : node.outputs()) {
    collect_value_names(output, names);
    if (!names.empty()) return names.front();
  }
  return "";
}

const ir::Argument* named_input(const ir::Node& node, std::string_view name) {
  for (const ir::NamedArgument& input : node.inputs())
    if (input.name() == name) return &input.arg();
  return nullptr;
}

std::string_view input_spec_arg_name(const ir::InputSpec& spec) {
  using K = ir::InputSpec::KindCase;
  switch (spec.kind_case()) {
    case K::kUserInput: return argument_value_name(spec.user_input().arg());
    case K::kParameter: return spec.parameter().arg().name();
    case K::kBuffer: return spec.buffer().arg().name();
    case K::kTensorConstant: return spec.tensor_constant().arg().name();
    case K::kCustomObj: return spec.custom_obj().arg().name();
    case K::kToken: return spec.token().arg().name();
    case K::kConstantInput: return spec.constant_input().name();
    case K::KIND_NOT_SET: return "";
  }
  return "";
}

std::string_view input_spec_target(const ir::InputSpec& spec) {
  using K = ir::InputSpec::KindCase;
  switch (spec.kind_case()) {
    case K::kParameter: return spec.parameter().parameter_name();
    case K::kBuffer: return spec.buffer().buffer_name();
    case K::kTensorConstant: return spec.tensor_constant().tensor_constant_name();
    case K::kCustomObj: return spec.custom_obj().custom_obj_name();
    default: return "";
  }
}

std::string_view output_spec_kind(const ir::OutputSpec& spec) {
  using K = ir::OutputSpec::KindCase;
  switch (spec.kind_case()) {
    case K::kUserOutput: return "user_output";
    case K::kLossOutput: return "loss_output";
    case K::kBufferMutation: return "buffer_mutation";
    case K::kGradientToParameter: return "gradient_to_parameter";
    case K::kGradientToUserInput: return "gradient_to_user_input";
    case K::kUserInputMutation: return "user_input_mutation";
    case K::kToken: return "token";
    case K::kParameterMutation: return "parameter_mutation";
    case K::KIND_NOT_SET: return "";
  }
  return "";
}

std::string_view output_spec_arg_name(const ir::OutputSpec& spec) {
  using K = ir::OutputSpec::KindCase;
  switch (spec.kind_case()) {
    case K::kUserOutput: return argument_value_name(spec.user_output().arg());
    case K::kLossOutput: return spec.loss_output().arg().name();
    case K::kBufferMutation: return spec.buffer_mutation().arg().name();
    case K::kGradientToParameter: return spec.gradient_to_parameter().arg().name();
    case K::kGradientToUserInput: return spec.gradient_to_user_input().arg().name();
    case K::kUserInputMutation: return spec.user_input_mutation().arg().name();
    case K::kToken: return spec.token().arg().name();
    case K::kParameterMutation: return spec.parameter_mutation().arg().name();
    case K::KIND_NOT_SET: return "";
  }
  return "";
}

std::string_view output_spec_target(const ir::OutputSpec& spec) {
  using K = ir::OutputSpec::KindCase;
  switch (spec.kind_case()) {
    case K::kBufferMutation: return spec.buffer_mutation().buffer_name();
    case K::kGradientToParameter: return spec.gradient_to_parameter().parameter_name();
    case K::kGradientToUserInput: return spec.gradient_to_user_input().user_input_name();
    case K::kUserInputMutation: return spec.user_input_mutation().user_input_name();
    case K::kParameterMutation: return spec.parameter_mutation().parameter_name();
    default: return "";
  }
}

std::string_view value_table_name(ValueTable table) {
  switch (table) {
    case ValueTable::kTensor: return "tensor_values";
    case ValueTable::kSymInt: return "sym_int_values";
    case ValueTable::kSymBool: return "sym_bool_values";
    case ValueTable::kSymFloat: return "sym_float_values";
  }
  return "";
}

void collect_typed_values(const ir::Argument& a, std::vector<TypedValue>& out) {
  using K = ir::Argument::KindCase;
  switch (a.kind_case()) {
    case K::kAsTensor: out.push_back({a.as_tensor().name(), ValueTable::kTensor}); break;
    case K::kAsTensors:
      for (const auto& t : a.as_tensors().items()) out.push_back({t.name(), ValueTable::kTensor});
      break;
    case K::kAsOptionalTensors:
      for (const auto& t : a.as_optional_tensors().items())
        if (t.has_as_tensor()) out.push_back({t.as_tensor().name(), ValueTable::kTensor});
      break;
    case K::kAsOptionalTensor:
      if (a.as_optional_tensor().has_as_tensor())
        out.push_back({a.as_optional_tensor().as_tensor().name(), ValueTable::kTensor});
      break;
    case K::kAsSymInt:
      if (a.as_sym_int().has_as_name())
        out.push_back({a.as_sym_int().as_name(), ValueTable::kSymInt});
      break;
    case K::kAsSymInts:
      for (const auto& v : a.as_sym_ints().items())
        if (v.has_as_name()) out.push_back({v.as_name(), ValueTable::kSymInt});
      break;
    case K::kAsSymBool:
      if (a.as_sym_bool().has_as_name())
        out.push_back({a.as_sym_bool().as_name(), ValueTable::kSymBool});
      break;
    case K::kAsSymBools:
      for (const auto& v : a.as_sym_bools().items())
        if (v.has_as_name()) out.push_back({v.as_name(), ValueTable::kSymBool});
      break;
    case K::kAsSymFloat:
      if (a.as_sym_float().has_as_name())
        out.push_back({a.as_sym_float().as_name(), ValueTable::kSymFloat});
      break;
    case K::kAsSymFloats:
      for (const auto& v : a.as_sym_floats().items())
        if (v.has_as_name()) out.push_back({v.as_name(), ValueTable::kSymFloat});
      break;
    default: break;  // constants, tokens, custom objects: no metadata table
  }
}

bool is_mutation_output(const ir::OutputSpec& spec) {
  return spec.has_buffer_mutation() || spec.has_parameter_mutation() ||
         spec.has_user_input_mutation();
}

}  // namespace pt2lint
