#include "core/ir/state_kind.h"

#include "program.pb.h"

namespace pt2lint {

StateKind state_kind_of(const ir::InputSpec& spec) {
  using K = ir::InputSpec::KindCase;
  switch (spec.kind_case()) {
    case K::kUserInput: return StateKind::kUserInput;
    case K::kParameter: return StateKind::kParameter;
    case K::kBuffer: return StateKind::kBuffer;
    case K::kTensorConstant: return StateKind::kTensorConstant;
    case K::kCustomObj: return StateKind::kCustomObj;
    case K::kToken: return StateKind::kToken;
    case K::kConstantInput: return StateKind::kConstantInput;
    case K::KIND_NOT_SET: return StateKind::kNone;
  }
  return StateKind::kNone;
}

std::string_view state_kind_name(StateKind kind) {
  switch (kind) {
    case StateKind::kUserInput: return "user_input";
    case StateKind::kParameter: return "parameter";
    case StateKind::kBuffer: return "buffer";
    case StateKind::kTensorConstant: return "tensor_constant";
    case StateKind::kCustomObj: return "custom_obj";
    case StateKind::kToken: return "token";
    case StateKind::kConstantInput: return "constant_input";
    case StateKind::kNone: return "";
  }
  return "";
}

std::optional<StateKind> parse_state_kind(std::string_view name) {
  for (StateKind kind : {StateKind::kUserInput, StateKind::kParameter, StateKind::kBuffer,
                         StateKind::kTensorConstant, StateKind::kCustomObj, StateKind::kToken,
                         StateKind::kConstantInput})
    if (state_kind_name(kind) == name) return kind;
  return std::nullopt;
}

std::string_view state_kind_words(StateKind kind) {
  switch (kind) {
    case StateKind::kUserInput: return "user input";
    case StateKind::kTensorConstant: return "tensor constant";
    case StateKind::kCustomObj: return "custom object";
    case StateKind::kConstantInput: return "constant input";
    default: return state_kind_name(kind);
  }
}

StateKind mutation_state_kind(const ir::OutputSpec& spec) {
  if (spec.has_buffer_mutation()) return StateKind::kBuffer;
  if (spec.has_parameter_mutation()) return StateKind::kParameter;
  if (spec.has_user_input_mutation()) return StateKind::kUserInput;
  return StateKind::kNone;
}

std::string_view mutation_spec_kind(StateKind kind) {
  switch (kind) {
    case StateKind::kBuffer: return "buffer_mutation";
    case StateKind::kParameter: return "parameter_mutation";
    case StateKind::kUserInput: return "user_input_mutation";
    default: return "";
  }
}

}  // namespace pt2lint
