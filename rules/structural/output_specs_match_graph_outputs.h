// output-specs-match-graph-outputs: output spec i describes graph output i.
#pragma once

#include "verifier/rule.h"

namespace pt2lint {

class OutputSpecsMatchGraphOutputs final : public Rule {
 public:
  static constexpr RuleInfo kInfo{
      "PT202", "output-specs-match-graph-outputs", Severity::kError, RulePhase::kStructural,
      "one output spec per graph output, and output spec i names graph output i"};
  const RuleInfo& info() const override { return kInfo; }
  void check(const ProgramIndex& index, DiagnosticSink& sink) const override;
};

}  // namespace pt2lint
