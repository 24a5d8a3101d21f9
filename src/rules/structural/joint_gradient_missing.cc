// PT218 joint-gradient-missing: a parameter of a joint program requires grad, but no output is
// its gradient. _export_forward_backward returns one gradient per parameter that requires grad,
// and none for a frozen one (requires_grad false in its metadata; measured on PyTorch 2.11,
// tests/data/device/joint/). A pass that prunes a gradient output leaves a program PyTorch loads
// and validates, whose optimizer silently stops training that weight (pytorch/pytorch#186542).
// docs/rules/joint-gradient-missing.md
#include <fmt/format.h>

#include <memory>
#include <set>
#include <string>

#include "analysis/program_index.h"
#include "analysis/state/state_storage.h"
#include "core/rule.h"
#include "core/rule_catalogue.h"
#include "rules/common/joint_signature.h"

namespace pt2lint {
namespace {

class JointGradientMissing final : public Rule {
 public:
  const RuleInfo& info() const override { return kJointGradientMissing; }

  void check(const ProgramIndex& index, DiagnosticSink& sink) const override {
    const ir::GraphSignature& signature = index.signature();
    if (!is_joint_signature(signature)) return;
    std::set<std::string> with_gradient;  // parameter storages
    for (const ir::OutputSpec& spec : signature.output_specs()) {
      if (!spec.has_gradient_to_parameter()) continue;
      // A gradient naming no parameter, or a second gradient of one: joint-gradient-names-input
      // reports it, with the parameters left without one.
      if (!gradient_input_spec(index, spec)) return;
      const std::string key(index.storage().canonical(spec.gradient_to_parameter().parameter_name()));
      if (!with_gradient.insert(key).second) return;
    }
    for (int i = 0; i < signature.input_specs_size(); ++i) {
      const ir::InputSpec& spec = signature.input_specs(i);
      if (!spec.has_parameter()) continue;
      const ir::TensorMeta* meta = index.tensor_meta(spec.parameter().arg().name());
      if (meta == nullptr || !meta->requires_grad()) continue;  // frozen, or not recorded
      const std::string& fqn = spec.parameter().parameter_name();
      if (with_gradient.count(std::string(index.storage().canonical(fqn)))) continue;
      emit(sink, kJointGradientMissing, index.name(),
           fmt::format("parameter `{}` (input_specs[{}]) requires grad, but no output of this joint program is its "
                       "gradient",
                       fqn, i))
          .at_input_spec(i)
          .state(fqn)
          .note("_export_forward_backward returns one GRADIENT_TO_PARAMETER per parameter that requires grad; "
                "PyTorch loads and validates a program without it, and the optimizer silently stops training the "
                "weight")
          .fix(fmt::format("return the gradient of `{}` with a GRADIENT_TO_PARAMETER spec (the pass that pruned the "
                           "outputs must keep it), or freeze the parameter (requires_grad=False) before the export",
                           fqn));
    }
  }
};

}  // namespace

std::unique_ptr<Rule> make_JointGradientMissing() { return std::make_unique<JointGradientMissing>(); }

}  // namespace pt2lint
