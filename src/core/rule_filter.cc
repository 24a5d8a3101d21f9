#include "core/rule_filter.h"

#include <system_error>

#include "support/path_glob.h"

namespace pt2lint {

bool RuleFilter::enabled(std::string_view rule_id) const {
  if (ignored_.count(rule_id) != 0) return false;
  if (extended_.count(rule_id) != 0) return true;
  if (selected_.empty()) return !select_none_ && opt_in_.count(rule_id) == 0;
  return selected_.count(rule_id) != 0;
}

void RuleFilter::ignore_in_files(std::filesystem::path base_dir, std::string pattern,
                                 const RuleInfo& rule) {
  file_ignores_.push_back({std::move(base_dir), std::move(pattern), std::string(rule.id)});
}

RuleFilter RuleFilter::for_file(const std::filesystem::path& path) const {
  RuleFilter resolved = *this;
  resolved.file_ignores_.clear();
  if (file_ignores_.empty()) return resolved;
  std::error_code error;
  std::filesystem::path absolute = std::filesystem::absolute(path, error).lexically_normal();
  for (const FileIgnore& entry : file_ignores_) {
    std::filesystem::path base = std::filesystem::absolute(entry.base_dir, error).lexically_normal();
    std::string relative = absolute.lexically_relative(base).generic_string();
    // A file outside the config's folder is matched by its path as given.
    if (relative.empty() || relative.compare(0, 2, "..") == 0)
      relative = path.lexically_normal().generic_string();
    if (path_matches(entry.pattern, relative)) resolved.ignored_.insert(entry.rule_id);
  }
  return resolved;
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
