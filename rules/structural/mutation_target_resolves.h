// mutation-target-resolves: every mutation output names state of the matching kind.
#pragma once

#include "verifier/rule.h"

namespace pt2lint {

class MutationTargetResolves final : public Rule {
 public:
  static constexpr RuleInfo kInfo{
      "PT204", "mutation-target-resolves", Severity::kError, RulePhase::kStructural,
      "a buffer/parameter/user-input mutation names a buffer, parameter or user input that "
      "exists"};
  const RuleInfo& info() const override { return kInfo; }
  void check(const ProgramIndex& index, DiagnosticSink& sink) const override;
};

}  // namespace pt2lint
