// state-dict-mismatch: the weights and constants configs agree with the lifted state.
#pragma once

#include "verifier/rule.h"

namespace pt2lint {

class StateDictMismatch final : public Rule {
 public:
  static constexpr RuleInfo kInfo{
      "PT206", "state-dict-mismatch", Severity::kError, RulePhase::kStructural,
      "the weights and constants saved with the program match the state it lifts, with "
      "records that fit their tensors"};
  const RuleInfo& info() const override { return kInfo; }
  void check(const ProgramIndex& index, DiagnosticSink& sink) const override;
};

}  // namespace pt2lint
