#include "rules/common/joint_signature.h"

#include "analysis/program_index.h"

namespace pt2lint {

bool is_joint_signature(const ir::GraphSignature& signature) {
  for (const ir::OutputSpec& spec : signature.output_specs())
    if (spec.has_loss_output() || spec.has_gradient_to_parameter() || spec.has_gradient_to_user_input()) return true;
  return false;
}

std::optional<int> gradient_input_spec(const ProgramIndex& index, const ir::OutputSpec& spec) {
  if (spec.has_gradient_to_parameter())
    return index.input_spec_by_target(StateKind::kParameter, spec.gradient_to_parameter().parameter_name());
  if (spec.has_gradient_to_user_input()) {
    std::optional<int> found = index.input_spec_index(spec.gradient_to_user_input().user_input_name());
    if (found && !index.signature().input_specs(*found).has_user_input()) found.reset();
    return found;
  }
  return std::nullopt;
}

std::string_view gradient_target_words(const ir::OutputSpec& spec) {
  if (spec.has_gradient_to_parameter()) return state_kind_words(StateKind::kParameter);
  if (spec.has_gradient_to_user_input()) return state_kind_words(StateKind::kUserInput);
  return "";
}

std::string_view gradient_target(const ir::OutputSpec& spec) {
  if (spec.has_gradient_to_parameter()) return spec.gradient_to_parameter().parameter_name();
  if (spec.has_gradient_to_user_input()) return spec.gradient_to_user_input().user_input_name();
  return "";
}

}  // namespace pt2lint
