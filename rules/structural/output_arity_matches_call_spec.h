// output-arity-matches-call-spec: user outputs match the root out_spec's leaves.
#pragma once

#include "verifier/rule.h"

namespace pt2lint {

class OutputArityMatchesCallSpec final : public Rule {
 public:
  static constexpr RuleInfo kInfo{
      "PT210", "output-arity-matches-call-spec", Severity::kError, RulePhase::kStructural,
      "the number of user and loss outputs equals the leaf count of the root module call "
      "signature's out_spec"};
  const RuleInfo& info() const override { return kInfo; }
  void check(const ProgramIndex& index, DiagnosticSink& sink) const override;
};

}  // namespace pt2lint
