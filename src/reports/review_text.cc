#include "reports/review_text.h"

#include <map>

#include "reports/finding_anchor.h"

namespace pt2lint {
namespace {

// "explains 7 more findings (7 PT301 mutation-value-derives-from-target)"; "" when the
// finding groups nothing.
std::string explains_more(const FileResult& file, const Finding& primary) {
  if (primary.related.empty()) return {};
  std::map<std::string, int> per_rule;
  for (int i : primary.related) {
    if (i < 0 || static_cast<std::size_t>(i) >= file.findings.size()) continue;
    ++per_rule[file.findings[i].rule_id + " " + file.findings[i].rule_name];
  }
  std::size_t n = primary.related.size();
  std::string text = "explains " + std::to_string(n) + (n == 1 ? " more finding (" : " more findings (");
  bool first = true;
  for (const auto& [rule, count] : per_rule) {
    text += (first ? "" : ", ") + std::to_string(count) + ' ' + rule;
    first = false;
  }
  return text + ")";
}

// "caused by the swap reported as PT205 one-mutation-per-buffer (finding 3)"; "" when the
// finding is not grouped under a primary. Findings are numbered from 1, as
// `pt2lint graph FILE --finding N` counts them.
std::string caused_by(const FileResult& file, const Finding& finding) {
  if (!finding.cause || *finding.cause < 0 ||
      static_cast<std::size_t>(*finding.cause) >= file.findings.size())
    return {};
  const Finding& primary = file.findings[*finding.cause];
  std::string cause = primary.root_cause.empty() ? "root cause" : primary.root_cause;
  return "caused by the " + cause + " reported as " + primary.rule_id + " " + primary.rule_name +
         " (finding " + std::to_string(*finding.cause + 1) + ")";
}

}  // namespace

std::string review_message(const FileResult& file, const Finding& finding,
                           std::string_view separator) {
  std::string text = message_with_notes(finding, separator);
  if (finding.fix && !finding.fix->description.empty()) {
    text += separator;
    text += "fix: ";
    text += finding.fix->description;
  }
  for (const std::string& line : {explains_more(file, finding), caused_by(file, finding)}) {
    if (line.empty()) continue;
    text += separator;
    text += line;
  }
  return text;
}

std::vector<char> listed_in_report(const FileResult& file, std::size_t per_cause) {
  std::vector<char> listed(file.findings.size(), 1);
  for (const Finding& primary : file.findings) {
    for (std::size_t k = per_cause; k < primary.related.size(); ++k) {
      const auto r = static_cast<std::size_t>(primary.related[k]);
      if (r < listed.size()) listed[r] = 0;
    }
  }
  return listed;
}

}  // namespace pt2lint
