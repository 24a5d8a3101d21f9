// value-defined-before-use: every value read is a graph input or an earlier node's output.
#pragma once

#include "verifier/rule.h"

namespace pt2lint {

class ValueDefinedBeforeUse final : public Rule {
 public:
  static constexpr RuleInfo kInfo{
      "PT207", "value-defined-before-use", Severity::kError, RulePhase::kStructural,
      "every value a node, graph output or output spec reads is a graph input or the output "
      "of an earlier node"};
  const RuleInfo& info() const override { return kInfo; }
  void check(const ProgramIndex& index, DiagnosticSink& sink) const override;
};

}  // namespace pt2lint
