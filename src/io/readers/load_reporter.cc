#include "io/readers/load_reporter.h"

#include <fmt/format.h>

namespace pt2lint {

void LoadReporter::report(const RuleInfo& rule, std::string_view program, std::string message,
                          std::string_view member, std::string_view json_path,
                          std::string note) {
  if (!admit(rule, program)) return;
  if (&sink_ == &held_) held_rules_.push_back(&rule);
  auto finding = emit(sink_, rule, std::string(program), std::move(message));
  if (!member.empty()) finding.at_member(std::string(member));
  if (!json_path.empty()) finding.at_json_path(std::string(json_path));
  if (!note.empty()) finding.note(std::move(note));
}

bool LoadReporter::admit(const RuleInfo& rule, std::string_view program) {
  if (filter_ != nullptr && !filter_->enabled(rule.id)) return true;  // shown to nobody
  if (reported_ < max_findings_) {
    ++reported_;
    return true;
  }
  suppress(rule, program, 1);
  return false;
}

void LoadReporter::suppress(const RuleInfo& rule, std::string_view program, std::size_t count) {
  for (auto& s : suppressed_) {
    if (s.rule == &rule) {
      s.count += count;
      return;
    }
  }
  suppressed_.push_back({&rule, std::string(program), count});
}

void LoadReporter::adopt(LoadReporter& held) {
  std::vector<Finding> findings = held.held_.take();
  for (std::size_t i = 0; i < findings.size(); ++i) {
    const RuleInfo& rule = *held.held_rules_[i];
    if (!admit(rule, findings[i].program)) continue;
    // A held reporter adopting another (a program's findings held until its CRC is known,
    // holding those held until its schema version is) keeps each finding's rule with it.
    if (&sink_ == &held_) held_rules_.push_back(&rule);
    sink_.report(std::move(findings[i]));
  }
  // Findings the held reporter already dropped stay dropped; only their count carries over.
  for (const auto& s : held.suppressed_) suppress(*s.rule, s.program, s.count);
  held.held_rules_.clear();
  held.suppressed_.clear();
}

void LoadReporter::finish() {
  for (const auto& s : suppressed_) {
    emit(sink_, *s.rule, s.program,
         fmt::format("{} more {} finding{} in this file {} not shown", s.count, s.rule->name,
                     s.count == 1 ? "" : "s", s.count == 1 ? "was" : "were"))
        .note(fmt::format("a file reports at most {} findings of its own; fix the ones shown "
                          "first, they often cause the rest",
                          max_findings_));
  }
  suppressed_.clear();
}

}  // namespace pt2lint
