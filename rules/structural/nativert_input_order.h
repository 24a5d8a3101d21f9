// nativert-input-order: what PyTorch's C++ runtime, nativert, refuses in a graph signature.
// torch/nativert/graph/GraphSignature.cpp (read at pytorch/pytorch 123527f6) refuses effect
// tokens ("Token inputs not implemented yet.") and checks, in checkInputOrders, that inputs
// come token < parameter < buffer < tensor constant < custom object (user inputs and constant
// inputs anywhere) with persistent buffers before non-persistent ones. Severity follows what
// was measured with PyTorch 2.11 (docs/rules/nativert-input-order.md): torch.export.load loads
// and runs all of these; nativert's PyModelRunner refuses tokens (a warning) and loads the
// order variants (a note: only the newer source refuses them).
#pragma once

#include "verifier/rule.h"

namespace pt2lint {

class NativertInputOrder final : public Rule {
 public:
  static constexpr RuleInfo kInfo{
      "PT211", "nativert-input-order", Severity::kWarning, RulePhase::kStructural,
      "the inputs are in an order, or of a kind (effect tokens), that PyTorch's C++ runtime "
      "nativert refuses",
      // Opt-in: only programs served by nativert care, and PyTorch's own exports (a static-cache
      // decoder after run_decompositions, any program with effect tokens) trigger it.
      /*default_enabled=*/false};
  const RuleInfo& info() const override { return kInfo; }
  void check(const ProgramIndex& index, DiagnosticSink& sink) const override;
};

}  // namespace pt2lint
