// What one run of `pt2lint check` found, and the counts drawn from it. The renderers of the
// reports layer read it; the engine (engine/run.h) fills it; it decides nothing itself.
#pragma once

#include <cstddef>
#include <string>
#include <vector>

#include "core/check_result.h"
#include "engine/baseline/baseline.h"

namespace pt2lint {

struct RunReport {
  // The files that were read as programs, in discovery order (given order, folders sorted),
  // whatever the number of jobs. Files skipped by a folder walk are not listed.
  std::vector<FileResult> files;
  // Problems with the inputs, without the "pt2lint: error: " prefix, in the order they
  // arose: paths that cannot be opened, a bad config, selector, op schema or baseline.
  std::vector<std::string> errors;
  // A usage error stopped the run (bad config, selector, op schema, baseline or standard
  // input): `files` is not a result and must not be rendered. Without it, `errors` lists only
  // paths that could not be opened, and everything else was checked.
  bool stopped = false;
  // Baseline entries that matched no finding of this run (--baseline), for the stale listing.
  std::vector<BaselineEntry> stale_baseline;
  // `docs-url` of the first config that sets one; "" when none does.
  std::string docs_url;
  // The paths, as given, that yielded no program: an empty folder, one holding only other
  // files, or everything in it excluded. Not a success: the caller warns and fails the run.
  std::vector<std::string> without_programs;
  // The baseline file applied ("" for none), and the note when it did not exist yet.
  std::string baseline;
  std::string baseline_note;
};

struct ReportCounts {
  std::size_t files = 0, errors = 0, warnings = 0, notes = 0;
  std::size_t baselined = 0;     // of all the above, those matched by the baseline
  std::size_t baselined_errors = 0, baselined_warnings = 0, baselined_notes = 0;
  std::size_t failing = 0;       // errors not in the baseline: these fail the run
};
ReportCounts count_findings(const RunReport& report);

// `--statistics`: how many findings each rule reported, ordered by rule ID, then name.
struct RuleStatistic {
  std::string rule_id;
  std::string rule_name;
  std::size_t count = 0;
  Severity severity = Severity::kNote;  // the most severe of the rule's findings
  std::size_t fixable = 0;              // findings with a repair `pt2lint fix` applies
};
std::vector<RuleStatistic> count_per_rule(const RunReport& report);

}  // namespace pt2lint
