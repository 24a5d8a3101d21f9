// PT212 joint-one-scalar-loss: a joint program (one with gradient outputs) has exactly one
// LOSS_OUTPUT, and it is a scalar. The gradients are of that one loss: a second loss output (every
// output marked LOSS_OUTPUT, pytorch/pytorch#140974), none, or a non-scalar one means the training
// step that reads the signature differentiates, logs or scales the wrong value.
// docs/rules/joint-one-scalar-loss.md
#include <fmt/format.h>

#include <memory>
#include <vector>

#include "analysis/dataflow/tensor_meta_text.h"
#include "analysis/program_index.h"
#include "core/rule.h"
#include "core/rule_catalogue.h"
#include "rules/common/joint_signature.h"

namespace pt2lint {
namespace {

// Whether every size is the integer 1 (a 0-dim tensor has none): false when a size is symbolic.
bool is_scalar(const ir::TensorMeta& meta) {
  for (const ir::SymInt& size : meta.sizes())
    if (!size.has_as_int() || size.as_int() != 1) return false;
  return true;
}

class JointOneScalarLoss final : public Rule {
 public:
  const RuleInfo& info() const override { return kJointOneScalarLoss; }

  void check(const ProgramIndex& index, DiagnosticSink& sink) const override {
    const ir::GraphSignature& signature = index.signature();
    if (!is_joint_signature(signature)) return;
    std::vector<int> losses;
    int first_gradient = -1;
    for (int i = 0; i < signature.output_specs_size(); ++i) {
      const ir::OutputSpec& spec = signature.output_specs(i);
      if (spec.has_loss_output()) losses.push_back(i);
      if (first_gradient < 0 && (spec.has_gradient_to_parameter() || spec.has_gradient_to_user_input()))
        first_gradient = i;
    }
    if (losses.empty()) {
      emit(sink, kJointOneScalarLoss, index.name(),
           fmt::format("output_specs[{}] is a gradient, but no output is the LOSS_OUTPUT it is the gradient of",
                       first_gradient))
          .at_output_spec(first_gradient)
          .note("a training step reads the loss from the LOSS_OUTPUT spec; without one it cannot log, scale or check "
                "the value the gradients belong to")
          .fix("mark the scalar loss the gradients are of as LOSS_OUTPUT (`OutputKind.LOSS_OUTPUT`), as "
               "`torch.export.experimental._export_forward_backward` does");
      return;
    }
    if (losses.size() > 1) {
      std::string others;
      for (std::size_t k = 1; k < losses.size(); ++k)
        others += fmt::format("{}output_specs[{}] (`{}`)", k > 1 ? ", " : "", losses[k],
                              output_spec_arg_name(signature.output_specs(losses[k])));
      emit(sink, kJointOneScalarLoss, index.name(),
           fmt::format("{} outputs are marked LOSS_OUTPUT: output_specs[{}] (`{}`), then {}; a joint program has one loss",
                       losses.size(), losses[0], output_spec_arg_name(signature.output_specs(losses[0])), others))
          .at_output_spec(losses[1])
          .note("the gradients are of one loss: the others are gradients or activations mislabelled, and a training "
                "step that reads the signature treats them as losses (pytorch/pytorch#140974)")
          .fix("keep LOSS_OUTPUT on the loss only and give each other output its own kind (GRADIENT_TO_PARAMETER, "
               "GRADIENT_TO_USER_INPUT or USER_OUTPUT)");
      return;
    }
    const std::string_view value = output_spec_arg_name(signature.output_specs(losses[0]));
    const ir::TensorMeta* meta = index.tensor_meta(value);
    if (meta != nullptr && !is_scalar(*meta)) {
      emit(sink, kJointOneScalarLoss, index.name(),
           fmt::format("the LOSS_OUTPUT `{}` (output_specs[{}]) has shape {}: a loss that gradients are taken of is a "
                       "scalar",
                       value, losses[0], dataflow::shape_text(*meta)))
          .at_output_spec(losses[0])
          .at_value(std::string(value))
          .note("backward of a non-scalar needs a gradient seed; the program's gradients are then of a weighted sum "
                "the signature does not name, or the spec marks the wrong output")
          .fix("reduce the loss to a scalar (`.mean()`, `.sum()`) before export, or mark the scalar output as "
               "LOSS_OUTPUT");
    }
  }
};

}  // namespace

std::unique_ptr<Rule> make_JointOneScalarLoss() { return std::make_unique<JointOneScalarLoss>(); }

}  // namespace pt2lint
