// Which rules are on and at what severity, as --select/--ignore and configuration say.
#pragma once

#include <filesystem>
#include <map>
#include <set>
#include <string>
#include <vector>

#include "core/diagnostic_sink.h"
#include "core/rule_info.h"

namespace pt2lint {

class RuleFilter {
 public:
  // Empty `selected` means every default-on rule.
  void select(const RuleInfo& rule) { selected_.emplace(rule.id); }
  // On in addition to the selection, or to the default-on rules when nothing is selected.
  void extend_select(const RuleInfo& rule) { extended_.emplace(rule.id); }
  // An opt-in rule (RuleInfo::default_enabled false) runs only when selected or extended.
  // A filter nobody marked treats every rule as default-on (engine tests, `lower`).
  void mark_opt_in(const RuleInfo& rule) { opt_in_.emplace(rule.id); }
  // An explicit empty selection (`select = []`): no rule runs unless selected later.
  void select_none() { select_none_ = true; }
  void ignore(const RuleInfo& rule) { ignored_.emplace(rule.id); }
  void override_severity(const RuleInfo& rule, Severity severity) {
    severities_[std::string(rule.id)] = severity;
  }

  // Per-file ignore: `rule` is off for files whose path relative to `base_dir` matches the
  // glob `pattern` (see src/support/path_glob.h).
  void ignore_in_files(std::filesystem::path base_dir, std::string pattern, const RuleInfo& rule);

  // The filter for one checked file: this one with the per-file ignores that match `path`
  // folded in. Resolved before the file is checked, so an ignored rule does not even run.
  RuleFilter for_file(const std::filesystem::path& path) const;

  bool enabled(std::string_view rule_id) const;
  // The severity a finding of `rule_id` is reported with, given the rule's own choice.
  Severity severity(std::string_view rule_id, Severity reported) const;

 private:
  struct FileIgnore {
    std::filesystem::path base_dir;
    std::string pattern;
    std::string rule_id;
  };

  bool select_none_ = false;
  std::set<std::string, std::less<>> selected_;
  std::set<std::string, std::less<>> extended_;
  std::set<std::string, std::less<>> opt_in_;
  std::vector<FileIgnore> file_ignores_;
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
