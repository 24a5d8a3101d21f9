// PT215 joint-no-parameter-write: a joint program does not write a parameter. Its training step
// applies the gradients the program returns; a PARAMETER_MUTATION as well updates the weights
// twice, or with a value the optimizer never saw (pytorch/pytorch#186470).
// docs/rules/joint-no-parameter-write.md
#include <fmt/format.h>

#include <memory>

#include "analysis/program_index.h"
#include "core/rule.h"
#include "core/rule_catalogue.h"
#include "rules/common/joint_signature.h"

namespace pt2lint {
namespace {

class JointNoParameterWrite final : public Rule {
 public:
  const RuleInfo& info() const override { return kJointNoParameterWrite; }

  void check(const ProgramIndex& index, DiagnosticSink& sink) const override {
    const ir::GraphSignature& signature = index.signature();
    if (!is_joint_signature(signature)) return;
    for (int i = 0; i < signature.output_specs_size(); ++i) {
      const ir::OutputSpec& spec = signature.output_specs(i);
      if (!spec.has_parameter_mutation()) continue;
      const std::string& target = spec.parameter_mutation().parameter_name();
      emit(sink, kJointNoParameterWrite, index.name(),
           fmt::format("output_specs[{}] writes parameter `{}` (from `{}`) in a joint program, which returns the "
                       "gradients an optimizer applies",
                       i, target, output_spec_arg_name(spec)))
          .at_output_spec(i)
          .state(target)
          .note("the training step applies the gradient and the runtime applies this write: the weights move twice, "
                "or by a value the optimizer's state does not know (pytorch/pytorch#186470)")
          .fix(fmt::format("do not write `{}` inside the exported step: move the update to the optimizer, or "
                           "register the written tensor as a buffer",
                           target));
    }
  }
};

}  // namespace

std::unique_ptr<Rule> make_JointNoParameterWrite() { return std::make_unique<JointNoParameterWrite>(); }

}  // namespace pt2lint
