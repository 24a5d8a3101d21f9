// PT211 nativert-input-order: what PyTorch's C++ runtime, nativert, refuses in a graph signature.
// torch/nativert/graph/GraphSignature.cpp (read at pytorch/pytorch 123527f6) refuses effect
// tokens ("Token inputs not implemented yet.") and checks, in checkInputOrders, that inputs
// come token < parameter < buffer < tensor constant < custom object (user inputs and constant
// inputs anywhere) with persistent buffers before non-persistent ones. Severity follows what
// was measured with PyTorch 2.11 (docs/rules/nativert-input-order.md): torch.export.load loads
// and runs all of these; nativert's PyModelRunner refuses tokens (a warning) and loads the
// order variants (a note: only the newer source refuses them).
// docs/rules/nativert-input-order.md
#include <fmt/format.h>

#include "analysis/program_index.h"
#include "core/rule.h"
#include "core/rule_catalogue.h"

namespace pt2lint {
namespace {

class NativertInputOrder final : public Rule {
 public:
  const RuleInfo& info() const override { return kNativertInputOrder; }
  void check(const ProgramIndex& index, DiagnosticSink& sink) const override;
};

// nativert's tagOrderArray; user and constant inputs are skipped by its check.
int order_rank(const ir::InputSpec& spec) {
  switch (spec.kind_case()) {
    case ir::InputSpec::kToken: return 0;
    case ir::InputSpec::kParameter: return 1;
    case ir::InputSpec::kBuffer: return 2;
    case ir::InputSpec::kTensorConstant: return 3;
    case ir::InputSpec::kCustomObj: return 4;
    default: return -1;
  }
}

std::string_view kind_words(int rank) {
  static constexpr std::string_view kWords[] = {"effect token", "parameter", "buffer",
                                                 "tensor constant", "custom object"};
  return rank >= 0 && rank < 5 ? kWords[rank] : "input";
}

// "`p_lin_weight` (parameter `lin.weight`)".
std::string describe(const ir::InputSpec& spec) {
  switch (spec.kind_case()) {
    case ir::InputSpec::kToken: return fmt::format("`{}`", spec.token().arg().name());
    case ir::InputSpec::kParameter:
      return fmt::format("`{}` (parameter `{}`)", spec.parameter().arg().name(),
                         spec.parameter().parameter_name());
    case ir::InputSpec::kBuffer:
      return fmt::format("`{}` ({}persistent buffer `{}`)", spec.buffer().arg().name(),
                         spec.buffer().persistent() ? "" : "non-", spec.buffer().buffer_name());
    case ir::InputSpec::kTensorConstant:
      return fmt::format("`{}` (tensor constant `{}`)", spec.tensor_constant().arg().name(),
                         spec.tensor_constant().tensor_constant_name());
    case ir::InputSpec::kCustomObj:
      return fmt::format("`{}` (custom object `{}`)", spec.custom_obj().arg().name(),
                         spec.custom_obj().custom_obj_name());
    default: return "an input";
  }
}

constexpr std::string_view kMeasured =
    "measured with PyTorch 2.11: torch.export.load loads and runs such a program";

void check_token(const ProgramIndex& index, DiagnosticSink& sink) {
  const auto& specs = index.signature().input_specs();
  for (int i = 0; i < specs.size(); ++i) {
    if (!specs[i].has_token()) continue;
    emit(sink, kNativertInputOrder, index.name(),
         fmt::format("input_specs[{}] {} is an effect token; PyTorch's C++ runtime nativert "
                     "refuses programs with token inputs (\"Token inputs not implemented yet.\")",
                     i, describe(specs[i])))
        .at_input_spec(i)
        .at_value(specs[i].token().arg().name())
        .note(fmt::format("{}, and nativert's PyModelRunner refuses it; Python is the only "
                          "runtime for it",
                          kMeasured))
        .note("tokens thread side effects (aten._print, custom ops with effects) through the "
              "graph")
        .fix("serve this program from Python, or export without the effectful op so that no "
             "token is needed");
    return;  // one is enough: nativert stops at the first
  }
}

void check_order(const ProgramIndex& index, DiagnosticSink& sink) {
  const auto& specs = index.signature().input_specs();
  int highest = -1;
  int highest_at = -1;
  int first_non_persistent = -1;
  for (int i = 0; i < specs.size(); ++i) {
    const int rank = order_rank(specs[i]);
    if (rank < 0) continue;
    std::string problem;
    int other = -1;
    if (rank < highest) {
      other = highest_at;
      problem = fmt::format("{} input_specs[{}] {} comes after {} input_specs[{}] {}; nativert "
                            "requires token < parameter < buffer < tensor constant < custom "
                            "object",
                            kind_words(rank), i, describe(specs[i]), kind_words(highest),
                            highest_at, describe(specs[highest_at]));
    } else if (specs[i].has_buffer() && specs[i].buffer().persistent() &&
               first_non_persistent >= 0) {
      other = first_non_persistent;
      problem = fmt::format("persistent buffer input_specs[{}] {} comes after non-persistent "
                            "buffer input_specs[{}] {}; nativert requires persistent buffers "
                            "first",
                            i, describe(specs[i]), first_non_persistent,
                            describe(specs[first_non_persistent]));
    }
    if (!problem.empty()) {
      emit(sink, kNativertInputOrder, index.name(),
           fmt::format("{} (checkInputOrders in torch/nativert/graph/GraphSignature.cpp)",
                       problem))
          .severity(Severity::kNote)
          .at_input_spec(i)
          .note(fmt::format("{}, and so does nativert's PyModelRunner in 2.11; the check is in "
                            "PyTorch's newer source, where nativert would refuse it with "
                            "\"Input arg ... is out of order!\" or \"Persistent buffers must "
                            "come before non-persistent buffers.\"",
                            kMeasured))
          .fix(fmt::format("move input_specs[{}] (and its placeholder) before input_specs[{}]",
                           i, other));
      return;  // nativert reports the first input out of order
    }
    if (rank > highest) {
      highest = rank;
      highest_at = i;
    }
    if (specs[i].has_buffer() && !specs[i].buffer().persistent() && first_non_persistent < 0) {
      first_non_persistent = i;
    }
  }
}

}  // namespace

void NativertInputOrder::check(const ProgramIndex& index, DiagnosticSink& sink) const {
  check_token(index, sink);
  check_order(index, sink);
}

std::unique_ptr<Rule> make_NativertInputOrder() { return std::make_unique<NativertInputOrder>(); }

}  // namespace pt2lint
