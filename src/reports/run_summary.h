// The lines that close a text run, shared by the text and concise formats: the summary
// ("3 files checked: 2 errors (1 baselined), 1 warning, 0 notes") and --statistics.
#pragma once

#include <ostream>
#include <string>

#include "engine/run_report.h"
#include "reports/renderer.h"

namespace pt2lint {

// ANSI colours of the text formats: cyan notes, magenta warnings, red errors, all bold.
struct TextPalette {
  bool on;
  const char* bold() const { return on ? "\x1b[1m" : ""; }
  const char* reset() const { return on ? "\x1b[0m" : ""; }
  const char* severity(Severity s) const {
    return on ? by_severity(s, "\x1b[1;36m", "\x1b[1;35m", "\x1b[1;31m") : "";
  }
};

// "path:program: error: message [PT204 name]": a finding's first line, without the newline.
void write_finding_line(const std::string& path, const Finding& f, const TextPalette& palette,
                        std::ostream& out);

// "1 file checked: no findings", or "N files checked: E errors (B baselined), W warnings, K
// notes": every count includes the baselined ones, which are named where there are any.
std::string closing_summary(const ReportCounts& counts);

// --statistics: one line per rule, ordered by ID: count, ID, name, severity (the most severe
// of its findings) and how many `pt2lint fix` can repair, tab-separated, as ruff prints them.
void write_statistics(const RunReport& report, std::ostream& out);

// "gen_corpus.py:128 in forward: `x = self.conv(x)`": the user's line that made the node,
// mapped by `source_root` as SARIF maps it; "" when the stack trace names none.
std::string user_source_line(const Finding& f, const std::string& source_root);

}  // namespace pt2lint
