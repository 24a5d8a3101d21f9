// input-specs-match-placeholders: input spec i describes graph input i, by name.
#pragma once

#include "verifier/rule.h"

namespace pt2lint {

class InputSpecsMatchPlaceholders final : public Rule {
 public:
  static constexpr RuleInfo kInfo{
      "PT201", "input-specs-match-placeholders", Severity::kError, RulePhase::kStructural,
      "one input spec per graph input, in the same order and with the same names"};
  const RuleInfo& info() const override { return kInfo; }
  void check(const ProgramIndex& index, DiagnosticSink& sink) const override;
};

}  // namespace pt2lint
