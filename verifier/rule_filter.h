// Which rules are on and at what severity, as --select/--ignore and configuration say.
#pragma once

#include <map>
#include <set>
#include <string>

#include "verifier/diagnostic_sink.h"
#include "verifier/rule_info.h"

namespace pt2lint {

class RuleFilter {
 public:
  // Empty `selected` means every rule.
  void select(const RuleInfo& rule) { selected_.emplace(rule.id); }
  void ignore(const RuleInfo& rule) { ignored_.emplace(rule.id); }
  void override_severity(const RuleInfo& rule, Severity severity) {
    severities_[std::string(rule.id)] = severity;
  }

  bool enabled(std::string_view rule_id) const;
  // The severity a finding of `rule_id` is reported with, given the rule's own choice.
  Severity severity(std::string_view rule_id, Severity reported) const;

 private:
  std::set<std::string, std::less<>> selected_;
  std::set<std::string, std::less<>> ignored_;
  std::map<std::string, Severity, std::less<>> severities_;
};

// Drops findings of disabled rules and applies severity overrides on the way to `next`.
class FilteringSink final : public DiagnosticSink {
 public:
  FilteringSink(const RuleFilter& filter, DiagnosticSink& next) : filter_(filter), next_(next) {}
  void report(Finding finding) override;

 private:
  const RuleFilter& filter_;
  DiagnosticSink& next_;
};

}  // namespace pt2lint
