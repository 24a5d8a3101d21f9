// mutations-before-user-outputs: outputs are laid out [tokens][mutations][user/loss outputs].
#pragma once

#include "verifier/rule.h"

namespace pt2lint {

class MutationsBeforeUserOutputs final : public Rule {
 public:
  static constexpr RuleInfo kInfo{
      "PT203", "mutations-before-user-outputs", Severity::kError, RulePhase::kStructural,
      "output specs are ordered tokens, then mutations, then user and loss outputs"};
  const RuleInfo& info() const override { return kInfo; }
  void check(const ProgramIndex& index, DiagnosticSink& sink) const override;
};

}  // namespace pt2lint
