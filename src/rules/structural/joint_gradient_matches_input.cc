// PT214 joint-gradient-matches-input: each gradient output has the shape and dtype of the parameter
// or user input it is declared for. Gradients paired with the wrong parameters (an (8, 6) gradient
// declared for an (8,) bias) load and validate in PyTorch; the optimizer then fails on the shapes
// or, where they broadcast, trains the wrong weights.
// docs/rules/joint-gradient-matches-input.md
#include <fmt/format.h>

#include <map>
#include <memory>
#include <vector>

#include "analysis/dataflow/tensor_meta_text.h"
#include "analysis/program_index.h"
#include "core/ir/tensor_meta_predicates.h"
#include "core/rule.h"
#include "core/rule_catalogue.h"
#include "rules/common/joint_signature.h"

namespace pt2lint {
namespace {

struct Gradient {
  int spec = -1;
  const ir::TensorMeta* value = nullptr;   // the gradient's metadata
  const ir::TensorMeta* target = nullptr;  // its parameter's or user input's
};

bool fits(const ir::TensorMeta& value, const ir::TensorMeta& target) {
  return same_sizes(value, target) && value.dtype() == target.dtype();
}

class JointGradientMatchesInput final : public Rule {
 public:
  const RuleInfo& info() const override { return kJointGradientMatchesInput; }

  void check(const ProgramIndex& index, DiagnosticSink& sink) const override {
    const ir::GraphSignature& signature = index.signature();
    if (!is_joint_signature(signature)) return;
    std::vector<Gradient> gradients;
    std::map<int, int> gradients_of;  // input spec -> how many gradient specs name it
    for (const ir::OutputSpec& spec : signature.output_specs())
      if (const std::optional<int> input = gradient_input_spec(index, spec)) ++gradients_of[*input];
    for (int i = 0; i < signature.output_specs_size(); ++i) {
      const ir::OutputSpec& spec = signature.output_specs(i);
      const std::optional<int> input = gradient_input_spec(index, spec);
      // None, or one of two gradients of one input: joint-gradient-names-input's finding.
      if (!input || gradients_of[*input] > 1) continue;
      Gradient g{i, index.tensor_meta(output_spec_arg_name(spec)),
                 index.tensor_meta(input_spec_arg_name(signature.input_specs(*input)))};
      if (g.value == nullptr || g.target == nullptr) continue;  // value-has-metadata's finding
      gradients.push_back(g);
    }
    std::vector<bool> reported(gradients.size(), false);
    for (std::size_t a = 0; a < gradients.size(); ++a) {
      if (reported[a] || fits(*gradients[a].value, *gradients[a].target)) continue;
      // Two gradients whose targets are exchanged are one finding.
      for (std::size_t b = a + 1; b < gradients.size() && !reported[a]; ++b) {
        if (reported[b] || fits(*gradients[b].value, *gradients[b].target)) continue;
        if (!fits(*gradients[a].value, *gradients[b].target) || !fits(*gradients[b].value, *gradients[a].target))
          continue;
        report_swap(index, gradients[a], gradients[b], sink);
        reported[a] = reported[b] = true;
      }
      if (!reported[a]) report_one(index, gradients[a], sink);
      reported[a] = true;
    }
  }

 private:
  void report_swap(const ProgramIndex& index, const Gradient& a, const Gradient& b, DiagnosticSink& sink) const {
    const ir::OutputSpec& sa = index.signature().output_specs(a.spec);
    const ir::OutputSpec& sb = index.signature().output_specs(b.spec);
    emit(sink, kJointGradientMatchesInput, index.name(),
         fmt::format("the gradients of {} `{}` and `{}` are exchanged: output_specs[{}] (`{}`, {}) fits `{}` ({}), "
                     "and output_specs[{}] (`{}`, {}) fits `{}` ({})",
                     gradient_target_words(sa), gradient_target(sa), gradient_target(sb), a.spec,
                     output_spec_arg_name(sa), dataflow::meta_text(*a.value), gradient_target(sb),
                     dataflow::meta_text(*b.target), b.spec, output_spec_arg_name(sb), dataflow::meta_text(*b.value),
                     gradient_target(sa), dataflow::meta_text(*a.target)))
        .at_output_spec(a.spec)
        .at_value(std::string(output_spec_arg_name(sa)))
        .note("PyTorch loads and validates this program; the optimizer then fails on the shapes, or, where they "
              "broadcast, trains each weight with the other's gradient")
        .fix(fmt::format("exchange the targets of output_specs[{}] and output_specs[{}]", a.spec, b.spec));
  }

  void report_one(const ProgramIndex& index, const Gradient& g, DiagnosticSink& sink) const {
    const ir::OutputSpec& spec = index.signature().output_specs(g.spec);
    emit(sink, kJointGradientMatchesInput, index.name(),
         fmt::format("output_specs[{}] declares `{}` ({}) the gradient of {} `{}`, which is {}", g.spec,
                     output_spec_arg_name(spec), dataflow::meta_text(*g.value), gradient_target_words(spec),
                     gradient_target(spec), dataflow::meta_text(*g.target)))
        .at_output_spec(g.spec)
        .at_value(std::string(output_spec_arg_name(spec)))
        .note("a gradient has its input's shape and dtype; this one belongs to another input, or the spec points at "
              "the wrong output")
        .fix("point the spec at the gradient of its input, or name the input this value is the gradient of");
  }
};

}  // namespace

std::unique_ptr<Rule> make_JointGradientMatchesInput() { return std::make_unique<JointGradientMatchesInput>(); }

}  // namespace pt2lint
