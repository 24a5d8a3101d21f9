#include "verifier/program_index.h"

#include <string>

namespace pt2lint {
namespace {

const std::vector<int> kNoUsers;

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
  using K = ir::Argument::KindCase;
  switch (a.kind_case()) {
    case K::kAsTensor: return a.as_tensor().name();
    case K::kAsSymInt: return a.as_sym_int().has_as_name() ? a.as_sym_int().as_name() : "";
    case K::kAsSymBool: return a.as_sym_bool().has_as_name() ? a.as_sym_bool().as_name() : "";
    case K::kAsSymFloat:
      return a.as_sym_float().has_as_name() ? a.as_sym_float().as_name() : "";
    case K::kAsCustomObj: return a.as_custom_obj().name();
    case K::kAsOptionalTensor:
      return a.as_optional_tensor().has_as_tensor() ? a.as_optional_tensor().as_tensor().name()
                                                   : "";
    default: return "";
  }
}

std::string_view input_spec_kind(const ir::InputSpec& spec) {
  using K = ir::InputSpec::KindCase;
  switch (spec.kind_case()) {
    case K::kUserInput: return "user_input";
    case K::kParameter: return "parameter";
    case K::kBuffer: return "buffer";
    case K::kTensorConstant: return "tensor_constant";
    case K::kCustomObj: return "custom_obj";
    case K::kToken: return "token";
    case K::kConstantInput: return "constant_input";
    case K::KIND_NOT_SET: return "";
  }
  return "";
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

bool is_mutation_output(const ir::OutputSpec& spec) {
  return spec.has_buffer_mutation() || spec.has_parameter_mutation() ||
         spec.has_user_input_mutation();
}

ProgramIndex::ProgramIndex(const ir::Program& program) : program_(program) {
  const ir::ExportedProgram& ep = program.program();
  for (const std::string& v : ep.verifiers()) {
    if (v == "TRAINING") dialect_ = Dialect::kTraining;
    else if (v == "ATEN") dialect_ = Dialect::kAten;
    else if (dialect_ == Dialect::kUnknown) dialect_ = Dialect::kOther;
  }
  if (dialect_ == Dialect::kUnknown && !ep.dialect().empty()) {
    dialect_ = ep.dialect() == "TRAINING" ? Dialect::kTraining
               : ep.dialect() == "ATEN"   ? Dialect::kAten
                                          : Dialect::kOther;
  }

  const ir::Graph& g = graph();
  // Sized once up front: rehashing these maps while they grow cost about a quarter of
  // building the index of a 5,000-node program. Most nodes define one value.
  const std::size_t values = static_cast<std::size_t>(g.inputs_size() + g.nodes_size());
  definitions_.reserve(values);
  definition_counts_.reserve(values);
  users_.reserve(values);
  node_by_name_.reserve(static_cast<std::size_t>(g.nodes_size()));
  input_spec_by_arg_.reserve(static_cast<std::size_t>(signature().input_specs_size()));
  input_spec_by_target_.reserve(static_cast<std::size_t>(signature().input_specs_size()));
  placeholders_.reserve(g.inputs_size());
  for (int i = 0; i < g.inputs_size(); ++i) {
    std::string_view name = argument_value_name(g.inputs(i));
    placeholders_.push_back(name);
    if (name.empty()) continue;
    ++definition_counts_[name];
    definitions_.try_emplace(name, ValueDef{i, -1});
  }
  std::vector<std::string_view> names;
  for (int n = 0; n < g.nodes_size(); ++n) {
    const ir::Node& node = g.nodes(n);
    names.clear();
    for (const ir::NamedArgument& input : node.inputs()) collect_value_names(input.arg(), names);
    for (std::string_view name : names) {
      std::vector<int>& list = users_[name];
      if (list.empty() || list.back() != n) list.push_back(n);
    }
    names.clear();
    for (const ir::Argument& output : node.outputs()) collect_value_names(output, names);
    for (std::string_view name : names) {
      ++definition_counts_[name];
      definitions_.try_emplace(name, ValueDef{-1, n});
    }
    node_by_name_.try_emplace(node_name(n), n);
  }
  outputs_.reserve(g.outputs_size());
  for (const ir::Argument& output : g.outputs()) outputs_.push_back(argument_value_name(output));

  tensor_meta_.reserve(g.tensor_values_size());
  for (const auto& entry : g.tensor_values()) tensor_meta_.try_emplace(entry.key(), &entry.value());
  for (const auto& entry : g.sym_int_values()) sym_values_.try_emplace(entry.key(), 0);
  for (const auto& entry : g.sym_bool_values()) sym_values_.try_emplace(entry.key(), 0);
  for (const auto& entry : g.sym_float_values()) sym_values_.try_emplace(entry.key(), 0);

  const ir::GraphSignature& sig = signature();
  for (int i = 0; i < sig.input_specs_size(); ++i) {
    const ir::InputSpec& spec = sig.input_specs(i);
    std::string_view arg = input_spec_arg_name(spec);
    if (!arg.empty()) input_spec_by_arg_.try_emplace(arg, i);
    std::string_view target = input_spec_target(spec);
    if (!target.empty()) {
      input_spec_by_target_.try_emplace(
          std::string(input_spec_kind(spec)) + ":" + std::string(target), i);
    }
  }
}

std::optional<ValueDef> ProgramIndex::definition(std::string_view value) const {
  auto it = definitions_.find(value);
  if (it == definitions_.end()) return std::nullopt;
  return it->second;
}

int ProgramIndex::definition_count(std::string_view value) const {
  auto it = definition_counts_.find(value);
  return it == definition_counts_.end() ? 0 : it->second;
}

const std::vector<int>& ProgramIndex::users(std::string_view value) const {
  auto it = users_.find(value);
  return it == users_.end() ? kNoUsers : it->second;
}

const ir::TensorMeta* ProgramIndex::tensor_meta(std::string_view value) const {
  auto it = tensor_meta_.find(value);
  return it == tensor_meta_.end() ? nullptr : it->second;
}

bool ProgramIndex::has_sym_value(std::string_view value) const {
  return sym_values_.count(value) != 0;
}

std::optional<int> ProgramIndex::input_spec_index(std::string_view placeholder) const {
  auto it = input_spec_by_arg_.find(placeholder);
  if (it == input_spec_by_arg_.end()) return std::nullopt;
  return it->second;
}

const ir::InputSpec* ProgramIndex::input_spec_for(std::string_view placeholder) const {
  auto index = input_spec_index(placeholder);
  return index ? &signature().input_specs(*index) : nullptr;
}

std::optional<int> ProgramIndex::input_spec_by_target(std::string_view kind,
                                                      std::string_view fqn) const {
  auto it = input_spec_by_target_.find(std::string(kind) + ":" + std::string(fqn));
  if (it == input_spec_by_target_.end()) return std::nullopt;
  return it->second;
}

std::optional<int> ProgramIndex::node_by_name(std::string_view node_name) const {
  auto it = node_by_name_.find(node_name);
  if (it == node_by_name_.end()) return std::nullopt;
  return it->second;
}

std::string_view ProgramIndex::node_name(int node) const {
  const ir::Node& n = graph().nodes(node);
  if (n.has_name() && !n.name().empty()) return n.name();
  for (const ir::Argument& output : n.outputs()) {
    std::vector<std::string_view> names;
    collect_value_names(output, names);
    if (!names.empty()) return names.front();
  }
  return "";
}

std::string_view ProgramIndex::node_metadata(int node, std::string_view key) const {
  for (const ir::StringEntry& entry : graph().nodes(node).metadata()) {
    if (entry.key() == key) return entry.value();
  }
  return "";
}

}  // namespace pt2lint
