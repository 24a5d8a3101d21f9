#include "frontends/load_reporter.h"

#include <fmt/format.h>

namespace pt2lint {

void LoadReporter::report(const RuleInfo& rule, std::string_view program, std::string message,
                          std::string_view member, std::string_view json_path,
                          std::string note) {
  if (reported_ >= max_findings_) {
    for (auto& s : suppressed_) {
      if (s.rule == &rule) {
        ++s.count;
        return;
      }
    }
    suppressed_.push_back({&rule, std::string(program), 1});
    return;
  }
  ++reported_;
  auto finding = emit(sink_, rule, std::string(program), std::move(message));
  if (!member.empty()) finding.at_member(std::string(member));
  if (!json_path.empty()) finding.at_json_path(std::string(json_path));
  if (!note.empty()) finding.note(std::move(note));
}

void LoadReporter::finish() {
  for (const auto& s : suppressed_) {
    emit(sink_, *s.rule, s.program,
         fmt::format("{} more {} finding{} in this file were not shown", s.count, s.rule->name,
                     s.count == 1 ? "" : "s"))
        .note(fmt::format("a file reports at most {} findings of its own; fix the ones shown "
                          "first, they often cause the rest",
                          max_findings_));
  }
  suppressed_.clear();
}

}  // namespace pt2lint
