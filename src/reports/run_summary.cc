#include "reports/run_summary.h"

#include <fmt/format.h>

#include "reports/escape/text_escape.h"
#include "reports/source_location.h"

namespace pt2lint {
namespace {

// " (baselined)" after a finding's severity when a baseline holds it, "" otherwise.
const char* baselined_mark(const Finding& f) { return f.baselined ? " (baselined)" : ""; }

std::string count_of(std::size_t count, std::size_t baselined, std::string_view noun) {
  std::string text = fmt::format("{} {}{}", count, noun, count == 1 ? "" : "s");
  if (baselined > 0) text += fmt::format(" ({} baselined)", baselined);
  return text;
}

}  // namespace

void write_finding_line(const std::string& path, const Finding& f, const TextPalette& palette,
                        std::ostream& out) {
  // The path, program name and message come from the file: inert (reports/escape/text_escape.h).
  out << palette.bold() << inert_line_start(path);
  if (!f.program.empty()) out << ':' << inert_text(f.program);
  out << ":" << palette.reset() << ' ' << palette.severity(f.severity) << severity_name(f.severity)
      << baselined_mark(f) << ':' << palette.reset() << ' ' << inert_text(f.message) << " [" << f.rule_id
      << ' ' << f.rule_name << ']';
}

std::string closing_summary(const ReportCounts& counts) {
  std::string files = fmt::format("{} file{} checked: ", counts.files, counts.files == 1 ? "" : "s");
  if (counts.errors + counts.warnings + counts.notes == 0) return files + "no findings";
  return files + count_of(counts.errors, counts.baselined_errors, "error") + ", " +
         count_of(counts.warnings, counts.baselined_warnings, "warning") + ", " +
         count_of(counts.notes, counts.baselined_notes, "note");
}

void write_statistics(const RunReport& report, std::ostream& out) {
  for (const RuleStatistic& rule : count_per_rule(report)) {
    out << rule.count << '\t' << rule.rule_id << '\t' << rule.rule_name << '\t'
        << severity_name(rule.severity) << '\t' << rule.fixable << " fixable\n";
  }
}

std::string user_source_line(const Finding& f, const std::string& source_root) {
  if (f.stack_trace.empty()) return {};
  std::optional<StackFrame> frame = user_frame(f.stack_trace, source_root);
  if (!frame) return {};
  std::string text = fmt::format("{}:{}", frame->file, frame->line);
  if (!frame->function.empty()) text += " in " + frame->function;
  if (!frame->code.empty()) text += ": `" + frame->code + '`';
  return text;
}

}  // namespace pt2lint
