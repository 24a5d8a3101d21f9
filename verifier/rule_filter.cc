#include "verifier/rule_filter.h"

namespace pt2lint {

bool RuleFilter::enabled(std::string_view rule_id) const {
  if (ignored_.count(rule_id) != 0) return false;
  return selected_.empty() || selected_.count(rule_id) != 0;
}

Severity RuleFilter::severity(std::string_view rule_id, Severity reported) const {
  auto it = severities_.find(rule_id);
  // An override replaces the rule's default; a rule that chose a lower level for one
  // finding (a note beside its errors) keeps that choice.
  if (it == severities_.end()) return reported;
  return reported == Severity::kNote ? Severity::kNote : it->second;
}

void FilteringSink::report(Finding finding) {
  if (!filter_.enabled(finding.rule_id)) return;
  finding.severity = filter_.severity(finding.rule_id, finding.severity);
  next_.report(std::move(finding));
}

}  // namespace pt2lint
