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
        case Severity::kError: ++counts.errors; counts.baselined_errors += f.baselined; break;
        case Severity::kWarning: ++counts.warnings; counts.baselined_warnings += f.baselined; break;
        case Severity::kNote: ++counts.notes; counts.baselined_notes += f.baselined; break;
      }
    }
  }
  return counts;
}

std::vector<RuleStatistic> count_per_rule(const RunReport& report) {
  // A map keyed by (ID, name) gives the order the statistics have always been printed in.
  std::map<std::pair<std::string, std::string>, RuleStatistic> per_rule;
  for (const FileResult& file : report.files) {
    for (const Finding& f : file.findings) {
      RuleStatistic& rule = per_rule[{f.rule_id, f.rule_name}];
      ++rule.count;
      if (f.severity > rule.severity) rule.severity = f.severity;
      if (f.fix && !f.fix->edits.empty()) ++rule.fixable;
    }
  }
  std::vector<RuleStatistic> counts;
  counts.reserve(per_rule.size());
  for (auto& [rule, statistic] : per_rule) {
    statistic.rule_id = rule.first;
    statistic.rule_name = rule.second;
    counts.push_back(std::move(statistic));
  }
  return counts;
}

}  // namespace pt2lint
