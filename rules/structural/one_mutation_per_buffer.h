// one-mutation-per-buffer: at most one mutation output per buffer, parameter or user input.
#pragma once

#include "verifier/rule.h"

namespace pt2lint {

class OneMutationPerBuffer final : public Rule {
 public:
  static constexpr RuleInfo kInfo{
      "PT205", "one-mutation-per-buffer", Severity::kError, RulePhase::kStructural,
      "no buffer, parameter or user input is the target of more than one mutation output"};
  const RuleInfo& info() const override { return kInfo; }
  void check(const ProgramIndex& index, DiagnosticSink& sink) const override;
};

}  // namespace pt2lint
