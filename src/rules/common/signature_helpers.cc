#include "rules/common/signature_helpers.h"

#include <fmt/format.h>

#include "analysis/program_index.h"

namespace pt2lint {

std::vector<DeclaredState> declared_state(const ir::GraphSignature& signature,
                                          StateKind kind) {
  std::vector<DeclaredState> states;
  for (int i = 0; i < signature.input_specs_size(); ++i) {
    const ir::InputSpec& spec = signature.input_specs(i);
    const StateKind spec_kind = state_kind_of(spec);
    bool is_state = spec.has_parameter() || spec.has_buffer() || spec.has_tensor_constant() ||
                    spec.has_custom_obj();
    if (!is_state || (kind != StateKind::kNone && spec_kind != kind)) continue;
    DeclaredState state;
    state.spec_index = i;
    state.kind = spec_kind;
    state.fqn = input_spec_target(spec);
    state.placeholder = input_spec_arg_name(spec);
    if (spec.has_buffer() && spec.buffer().has_persistent()) {
      state.persistence_known = true;
      state.persistent = spec.buffer().persistent();
    }
    states.push_back(state);
  }
  return states;
}

std::vector<std::string_view> user_input_names(const ir::GraphSignature& signature) {
  std::vector<std::string_view> names;
  for (const ir::InputSpec& spec : signature.input_specs()) {
    if (!spec.has_user_input()) continue;
    std::string_view name = input_spec_arg_name(spec);
    if (!name.empty()) names.push_back(name);
  }
  return names;
}

std::string quoted(std::string_view name) { return fmt::format("`{}`", name); }

std::string join_quoted(const std::vector<std::string_view>& names, std::size_t max_shown) {
  std::string out;
  std::size_t shown = std::min(names.size(), max_shown);
  for (std::size_t i = 0; i < shown; ++i) {
    if (i > 0) out += (i + 1 == shown && shown == names.size()) ? " and " : ", ";
    out += quoted(names[i]);
  }
  if (names.size() > shown) out += fmt::format(" and {} more", names.size() - shown);
  return out;
}

std::string describe_output_spec(const ir::OutputSpec& spec) {
  std::string_view kind = output_spec_kind(spec);
  if (kind.empty()) return "output spec of no known kind";
  std::string_view value = output_spec_arg_name(spec);
  std::string_view target = output_spec_target(spec);
  if (!target.empty()) {
    return value.empty() ? fmt::format("{} of `{}`", kind, target)
                         : fmt::format("{} of `{}` (value `{}`)", kind, target, value);
  }
  return value.empty() ? std::string(kind) : fmt::format("{} `{}`", kind, value);
}

std::string describe_output_role(const ir::OutputSpec& spec) {
  std::string_view kind = output_spec_kind(spec);
  if (kind.empty()) return "output spec of no known kind";
  std::string_view target = output_spec_target(spec);
  return target.empty() ? std::string(kind) : fmt::format("{} of `{}`", kind, target);
}

std::string count_of(std::size_t count, std::string_view singular, std::string_view plural) {
  return fmt::format("{} {}", count, count == 1 ? singular : plural);
}

std::string describe_input_role(const ir::InputSpec& spec) {
  std::string_view kind = state_kind_name(state_kind_of(spec));
  if (kind.empty()) return "input spec of no known kind";
  std::string_view target = input_spec_target(spec);
  return target.empty() ? std::string(kind) : fmt::format("{} `{}`", kind, target);
}

StateKind kind_from_placeholder_prefix(std::string_view placeholder) {
  if (placeholder.starts_with("p_")) return StateKind::kParameter;
  if (placeholder.starts_with("b_")) return StateKind::kBuffer;
  if (placeholder.starts_with("c_")) return StateKind::kTensorConstant;
  if (placeholder.starts_with("obj_")) return StateKind::kCustomObj;
  if (placeholder.starts_with("token")) return StateKind::kToken;
  return StateKind::kNone;
}

}  // namespace pt2lint
