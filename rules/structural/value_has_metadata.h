// value-has-metadata: every tensor and symbolic value has an entry in the graph's value tables.
#pragma once

#include "verifier/rule.h"

namespace pt2lint {

class ValueHasMetadata final : public Rule {
 public:
  static constexpr RuleInfo kInfo{
      "PT209", "value-has-metadata", Severity::kError, RulePhase::kStructural,
      "every tensor value has tensor_values metadata (and every symbolic value its sym_*_values "
      "entry)"};
  const RuleInfo& info() const override { return kInfo; }
  void check(const ProgramIndex& index, DiagnosticSink& sink) const override;
};

}  // namespace pt2lint
