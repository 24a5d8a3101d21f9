// state-dict-mismatch: the weights and constants configs agree with the lifted state.
#pragma once

#include "verifier/rule.h"

namespace pt2lint {

class StateDictMismatch final : public Rule {
 public:
  static constexpr RuleInfo kInfo{
      "PT206", "state-dict-mismatch", Severity::kError, RulePhase::kStructural,
      "every parameter and persistent buffer has a weights entry whose record exists and fits "
      "its tensor; constants and non-persistent buffers live in the constants"};
  const RuleInfo& info() const override { return kInfo; }
  void check(const ProgramIndex& index, DiagnosticSink& sink) const override;
};

}  // namespace pt2lint
