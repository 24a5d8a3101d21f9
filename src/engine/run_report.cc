#include "engine/run_report.h"

#include <map>
#include <utility>

namespace pt2lint {

ReportCounts count_findings(const RunReport& report) {
  ReportCounts counts;
  counts.files = report.files.size();
  for (const FileResult& file : report.files) {
    for (const Finding& f : file.findings) {
      if (f.baselined) ++counts.baselined;
      if (f.severity == Severity::kError && !f.baselined) ++counts.failing;
      switch (f.severity) {
        case Severity::kError: ++counts.errors; break;
        case Severity::kWarning: ++counts.warnings; break;
        case Severity::kNote: ++counts.notes; break;
      }
    }
  }
  return counts;
}

std::vector<RuleStatistic> count_per_rule(const RunReport& report) {
  // A map keyed by (ID, name) gives the order the statistics have always been printed in.
  std::map<std::pair<std::string, std::string>, std::size_t> per_rule;
  for (const FileResult& file : report.files)
    for (const Finding& f : file.findings) ++per_rule[{f.rule_id, f.rule_name}];
  std::vector<RuleStatistic> counts;
  counts.reserve(per_rule.size());
  for (const auto& [rule, count] : per_rule) counts.push_back({rule.first, rule.second, count});
  return counts;
}

}  // namespace pt2lint
