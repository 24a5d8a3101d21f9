// value-names-unique: every value (and FX node) name is defined once per graph.
#pragma once

#include "verifier/rule.h"

namespace pt2lint {

class ValueNamesUnique final : public Rule {
 public:
  static constexpr RuleInfo kInfo{
      "PT208", "value-names-unique", Severity::kError, RulePhase::kStructural,
      "each graph input, node and node output name is defined exactly once in its graph"};
  const RuleInfo& info() const override { return kInfo; }
  void check(const ProgramIndex& index, DiagnosticSink& sink) const override;
};

}  // namespace pt2lint
