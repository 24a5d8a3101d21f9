// PT217 joint-gradient-order: the parameter gradients of a joint program are not contiguous, or
// not in the order of their parameters' input specs. torch.export.experimental.
// _export_forward_backward emits them so (measured on PyTorch 2.11, tests/data/device/joint/), and
// positional consumers rely on it: ExecuTorch's TrainingModule names the k-th gradient and the
// k-th parameter by the k-th gradient spec's target, so a reordered joint program trains each
// weight with another's gradient. PyTorch itself pairs gradients by name, hence opt-in.
// docs/rules/joint-gradient-order.md
#include <fmt/format.h>

#include <memory>
#include <vector>

#include "analysis/program_index.h"
#include "core/rule.h"
#include "core/rule_catalogue.h"
#include "rules/common/joint_signature.h"

namespace pt2lint {
namespace {

constexpr const char* kPositionalConsumers =
    "PyTorch pairs gradients with parameters by name and runs this program correctly; positional "
    "consumers do not: ExecuTorch's TrainingModule takes the gradients as one block and names the "
    "k-th gradient and the k-th parameter by the k-th gradient spec, so its optimizer updates a "
    "weight with another's gradient";

class JointGradientOrder final : public Rule {
 public:
  const RuleInfo& info() const override { return kJointGradientOrder; }

  void check(const ProgramIndex& index, DiagnosticSink& sink) const override {
    const ir::GraphSignature& signature = index.signature();
    if (!is_joint_signature(signature)) return;
    std::vector<int> gradients;
    for (int i = 0; i < signature.output_specs_size(); ++i)
      if (signature.output_specs(i).has_gradient_to_parameter()) gradients.push_back(i);
    for (std::size_t k = 1; k < gradients.size(); ++k) {
      if (gradients[k] == gradients[k - 1] + 1) continue;
      const int between = gradients[k - 1] + 1;
      emit(sink, kJointGradientOrder, index.name(),
           fmt::format("output_specs[{}] ({}) sits between the parameter gradients output_specs[{}] and "
                       "output_specs[{}]: _export_forward_backward returns them as one block",
                       between, output_spec_kind(signature.output_specs(between)), gradients[k - 1], gradients[k]))
          .at_output_spec(between)
          .note(kPositionalConsumers)
          .fix("move the parameter gradients (specs and graph outputs together) into one block after the loss");
      return;
    }
    int last_input = -1, last_spec = -1;
    for (int i : gradients) {
      const std::optional<int> input = gradient_input_spec(index, signature.output_specs(i));
      if (!input) continue;  // joint-gradient-names-input's finding
      if (*input > last_input) {
        last_input = *input;
        last_spec = i;
        continue;
      }
      const ir::OutputSpec& spec = signature.output_specs(i);
      const ir::OutputSpec& before = signature.output_specs(last_spec);
      emit(sink, kJointGradientOrder, index.name(),
           fmt::format("output_specs[{}], the gradient of `{}` (input_specs[{}]), comes after output_specs[{}], the "
                       "gradient of `{}` (input_specs[{}]): the gradients are not in their parameters' input order",
                       i, gradient_target(spec), *input, last_spec, gradient_target(before), last_input))
          .at_output_spec(i)
          .at_value(std::string(output_spec_arg_name(spec)))
          .note(kPositionalConsumers)
          .fix("order the parameter gradients (specs and graph outputs together) as their parameters' input specs, "
               "as _export_forward_backward emits them");
      return;
    }
  }
};

}  // namespace

std::unique_ptr<Rule> make_JointGradientOrder() { return std::make_unique<JointGradientOrder>(); }

}  // namespace pt2lint
