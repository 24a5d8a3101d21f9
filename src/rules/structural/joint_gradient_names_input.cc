// PT213 joint-gradient-names-input: each gradient output names a parameter (GRADIENT_TO_PARAMETER)
// or user input (GRADIENT_TO_USER_INPUT) of the program, and each storage gets at most one
// gradient. PyTorch loads and validates a gradient spec naming a parameter that does not exist, and
// a pass that renames one gradient's target to another's: the optimizer then updates one weight
// twice and another never (pytorch/pytorch#186542, #147380 for tied weights).
// docs/rules/joint-gradient-names-input.md
#include <fmt/format.h>

#include <map>
#include <utility>
#include <memory>
#include <string>
#include <vector>

#include "analysis/program_index.h"
#include "analysis/state/state_storage.h"
#include "core/ir/tensor_meta_predicates.h"
#include "core/rule.h"
#include "core/rule_catalogue.h"
#include "rules/common/joint_signature.h"

namespace pt2lint {
namespace {

class JointGradientNamesInput final : public Rule {
 public:
  const RuleInfo& info() const override { return kJointGradientNamesInput; }

  void check(const ProgramIndex& index, DiagnosticSink& sink) const override {
    const ir::GraphSignature& signature = index.signature();
    if (!is_joint_signature(signature)) return;
    std::map<std::string, int> first_for_storage;  // storage key -> output spec
    std::vector<int> unresolved;
    std::vector<std::pair<int, int>> duplicates;  // (first, again)
    for (int i = 0; i < signature.output_specs_size(); ++i) {
      const ir::OutputSpec& spec = signature.output_specs(i);
      if (!spec.has_gradient_to_parameter() && !spec.has_gradient_to_user_input()) continue;
      const std::optional<int> input = gradient_input_spec(index, spec);
      if (!input) {
        unresolved.push_back(i);
        continue;
      }
      const std::string key = storage_key(index, spec);
      auto [it, inserted] = first_for_storage.try_emplace(key, i);
      if (!inserted) duplicates.emplace_back(it->second, i);
    }
    const std::vector<std::string> missing = parameters_without_gradient(index, first_for_storage);
    for (int i : unresolved) report_unresolved(index, i, missing, sink);
    for (const auto& [first, again] : duplicates) report_duplicate(index, first, again, missing, sink);
  }

 private:
  // Parameters sharing one storage (tied weights) are one key; a user input is its own.
  static std::string storage_key(const ProgramIndex& index, const ir::OutputSpec& spec) {
    if (spec.has_gradient_to_user_input()) return "input " + spec.gradient_to_user_input().user_input_name();
    return "parameter " + std::string(index.storage().canonical(spec.gradient_to_parameter().parameter_name()));
  }

  static std::vector<std::string> parameters_without_gradient(const ProgramIndex& index,
                                                              const std::map<std::string, int>& have) {
    std::vector<std::string> missing;
    for (const ir::InputSpec& spec : index.signature().input_specs()) {
      if (!spec.has_parameter()) continue;
      const std::string& fqn = spec.parameter().parameter_name();
      if (!have.count("parameter " + std::string(index.storage().canonical(fqn)))) missing.push_back(fqn);
    }
    return missing;
  }

  static std::string missing_text(const std::vector<std::string>& missing) {
    std::string out;
    for (const std::string& name : missing) out += fmt::format("{}`{}`", out.empty() ? "" : ", ", name);
    return out;
  }

  void report_unresolved(const ProgramIndex& index, int i, const std::vector<std::string>& missing,
                         DiagnosticSink& sink) const {
    const ir::OutputSpec& spec = index.signature().output_specs(i);
    auto finding = emit(sink, kJointGradientNamesInput, index.name(),
                        fmt::format("output_specs[{}] is the gradient of {} `{}`, which the program does not have "
                                    "(value `{}`)",
                                    i, gradient_target_words(spec), gradient_target(spec), output_spec_arg_name(spec)));
    finding.at_output_spec(i).at_value(std::string(output_spec_arg_name(spec)));
    finding.note("PyTorch loads and validates it; the optimizer looks the gradient up by name and finds no weight, "
                 "so this gradient is dropped and its weight never trains");
    if (!missing.empty() && spec.has_gradient_to_parameter())
      finding.note(fmt::format("parameters with no gradient: {}", missing_text(missing)));
    finding.fix(missing.size() == 1 && spec.has_gradient_to_parameter()
                    ? fmt::format("name `{}`, the one parameter without a gradient", missing.front())
                    : std::string("name the parameter or user input this gradient belongs to"));
  }

  // Whether gradient spec `i` has the shape and dtype of the input it names (true when unknown).
  static bool fits_target(const ProgramIndex& index, int i) {
    const ir::OutputSpec& spec = index.signature().output_specs(i);
    const std::optional<int> input = gradient_input_spec(index, spec);
    if (!input) return true;
    const ir::TensorMeta* value = index.tensor_meta(output_spec_arg_name(spec));
    const ir::TensorMeta* target = index.tensor_meta(input_spec_arg_name(index.signature().input_specs(*input)));
    return value == nullptr || target == nullptr || (same_sizes(*value, *target) && value->dtype() == target->dtype());
  }

  void report_duplicate(const ProgramIndex& index, int first, int again, const std::vector<std::string>& missing,
                        DiagnosticSink& sink) const {
    // Report at the one that does not fit the parameter's shape, when exactly one does not.
    if (fits_target(index, first) != fits_target(index, again) && !fits_target(index, first))
      std::swap(first, again);
    const ir::OutputSpec& a = index.signature().output_specs(first);
    const ir::OutputSpec& b = index.signature().output_specs(again);
    const bool tied = gradient_target(a) != gradient_target(b);
    auto finding = emit(sink, kJointGradientNamesInput, index.name(),
                        fmt::format("output_specs[{}] and output_specs[{}] are both gradients of {} `{}`{}", first,
                                    again, gradient_target_words(b), gradient_target(a),
                                    tied ? fmt::format(" (`{}` shares its storage)", gradient_target(b)) : ""));
    finding.at_output_spec(again).at_value(std::string(output_spec_arg_name(b)));
    finding.note(tied ? "tied parameters are one tensor: they get one gradient, the sum of both uses "
                        "(pytorch/pytorch#147380); two gradients apply the update twice"
                      : "the optimizer applies both to one weight, and another weight gets none");
    if (!missing.empty()) finding.note(fmt::format("parameters with no gradient: {}", missing_text(missing)));
    finding.fix(missing.size() == 1
                    ? fmt::format("output_specs[{}] is most likely the gradient of `{}`", again, missing.front())
                    : std::string("give each parameter storage exactly one gradient"));
  }
};

}  // namespace

std::unique_ptr<Rule> make_JointGradientNamesInput() { return std::make_unique<JointGradientNamesInput>(); }

}  // namespace pt2lint
