#include "reports/markdown_summary.h"

#include <map>

#include "reports/escape/markdown_escape.h"
#include "reports/finding_anchor.h"

namespace pt2lint {
namespace {

// The severity with an emoji that GitHub's Markdown renders as an icon.
std::string_view badge(Severity severity) {
  return by_severity<std::string_view>(severity, ":information_source: note", ":warning: warning",
                                       ":x: error");
}

std::string plural(std::size_t n, std::string_view word) {
  return std::to_string(n) + " " + std::string(word) + (n == 1 ? "" : "s");
}

}  // namespace

void write_markdown_summary(const RunReport& report, const RenderOptions& options,
                            std::ostream& out) {
  ReportCounts counts = count_findings(report);
  out << "## pt2lint\n\n";
  out << plural(counts.files, "file") << " checked: " << plural(counts.errors, "error") << ", "
      << plural(counts.warnings, "warning") << ", " << plural(counts.notes, "note");
  if (counts.baselined > 0) out << " (" << counts.baselined << " in the baseline)";
  out << ".\n";
  if (counts.errors + counts.warnings + counts.notes == 0) {
    out << "\nNo findings.\n";
    return;
  }
  out << "\n| Severity | Rule | File | Program | Message |\n|---|---|---|---|---|\n";
  std::size_t rows = 0, total = 0;
  std::map<std::pair<std::string, std::string>, std::size_t> per_rule;
  for (const FileResult& file : report.files) {
    for (const Finding& f : file.findings) {
      ++total;
      ++per_rule[{f.rule_id, f.rule_name}];
      if (rows == kMaxMarkdownRows) continue;
      ++rows;
      FindingAnchor anchor = anchor_finding(file, f, options.source_root);
      // Names from the file go into code spans no backtick in them can end, messages through
      // markdown_message (reports/escape/markdown_escape.h): nothing renders as a link,
      // image, mention or table structure.
      std::string where = markdown_code(anchor.artifact);
      if (anchor.source)
        where += "<br>" + markdown_code(anchor.source->path + ":" + std::to_string(anchor.source->line));
      const std::string rule = f.rule_id + ' ' + f.rule_name;
      const std::string uri = rule_help_uri(options.docs_url, f.rule_name);
      out << "| " << badge(f.severity) << (f.baselined ? " (baseline)" : "") << " | "
          << (uri.empty() ? rule : "[" + rule + "](" + uri + ")") << " | "
          << where << " | " << (f.program.empty() ? std::string() : markdown_code(f.program))
          << " | " << markdown_message(message_with_notes(f, "\n"))
          << " |\n";
    }
  }
  if (total > rows) out << "\n" << (total - rows) << " more findings are not shown.\n";
  out << "\n<details><summary>Findings per rule</summary>\n\n| Rule | Count |\n|---|---|\n";
  for (const auto& [rule, count] : per_rule)
    out << "| " << rule.first << ' ' << rule.second << " | " << count << " |\n";
  out << "\n</details>\n";
}

}  // namespace pt2lint
