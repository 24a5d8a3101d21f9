// check_paths (engine/run.h) as a library function: the findings and counts of a folder of
// goldens, the baseline round trip, standard input, sharding, and reports that do not depend
// on the number of jobs.
#include <gtest/gtest.h>

#include <algorithm>
#include <filesystem>
#include <fstream>
#include <map>
#include <sstream>
#include <string>
#include <vector>

#include <fmt/format.h>

#include "all_rules.h"
#include "core/rule_registry.h"
#include "engine/baseline/baseline.h"
#include "engine/run.h"
#include "properties/golden_expectation.h"
#include "reports/formats.h"

namespace pt2lint {
namespace {

namespace fs = std::filesystem;

const fs::path kGoldens = fs::path(PT2LINT_TESTS_DIR) / "golden" / "structural" / "mutation-target-resolves";

RunOptions options_for(std::vector<std::string> paths) {
  RunOptions options;
  options.paths = std::move(paths);
  options.rules.no_config = true;  // as the golden runner does: the goldens' own rules only
  options.jobs = 1;
  return options;
}

// The "# expect: SEVERITY RULE LOCATION" lines of a golden, sorted; none for "# expect: none".
std::vector<std::string> expected_findings(const fs::path& golden) {
  std::vector<std::string> expected;
  std::ifstream in(golden);
  for (std::string line; std::getline(in, line);) {
    const std::string prefix = "# expect: ";
    if (line.rfind(prefix, 0) == 0 && line != "# expect: none") expected.push_back(line.substr(prefix.size()));
  }
  std::sort(expected.begin(), expected.end());
  return expected;
}

std::vector<std::string> actual_findings(const FileResult& file) {
  std::vector<std::string> actual;
  for (const Finding& f : file.findings)
    actual.push_back(properties::golden_expectation(f));
  std::sort(actual.begin(), actual.end());
  return actual;
}

std::string as_json(const RunReport& report) {
  RenderOptions render;
  render.registry = &testing_support::all_rules();
  std::ostringstream out;
  make_renderer("json")->render(report, render, out);
  return out.str();
}

// A fresh folder under the test's temporary directory.
fs::path scratch(const std::string& name) {
  const fs::path dir = fs::path(testing::TempDir()) / ("pt2lint_engine_run_" + name);
  fs::remove_all(dir);
  fs::create_directories(dir);
  return dir;
}

TEST(CheckPaths, FolderOfGoldensGivesTheirFindingsAndCounts) {
  const RunReport report = check_paths(testing_support::all_rules(), options_for({kGoldens.string()}));
  ASSERT_FALSE(report.stopped);
  EXPECT_TRUE(report.errors.empty());
  std::size_t goldens = 0, expected_errors = 0;
  for (const auto& entry : fs::directory_iterator(kGoldens))
    if (entry.path().extension() == ".textproto") ++goldens;
  ASSERT_EQ(report.files.size(), goldens);
  std::map<std::string, std::size_t> expected_per_rule;
  for (const FileResult& file : report.files) {
    SCOPED_TRACE(file.path);
    const std::vector<std::string> expected = expected_findings(file.path);
    EXPECT_EQ(actual_findings(file), expected);
    for (const std::string& line : expected) {
      if (line.rfind("error ", 0) == 0) ++expected_errors;
      const std::string rule = line.substr(line.find(' ') + 1, line.rfind(' ') - line.find(' ') - 1);
      ++expected_per_rule[rule];
    }
  }
  // Files come in discovery order: sorted, whatever the sizes the scheduler goes by.
  EXPECT_TRUE(std::is_sorted(report.files.begin(), report.files.end(),
                             [](const FileResult& a, const FileResult& b) { return a.path < b.path; }));
  const ReportCounts counts = count_findings(report);
  EXPECT_EQ(counts.files, goldens);
  EXPECT_EQ(counts.errors, expected_errors);
  EXPECT_EQ(counts.failing, expected_errors);
  EXPECT_EQ(counts.baselined, 0u);
  std::map<std::string, std::size_t> per_rule;
  for (const RuleStatistic& rule : count_per_rule(report)) per_rule[rule.rule_name] = rule.count;
  EXPECT_EQ(per_rule, expected_per_rule);
}

TEST(CheckPaths, JobsDoNotChangeTheReport) {
  RunOptions one = options_for({kGoldens.string(), (kGoldens.parent_path() / "one-mutation-per-buffer").string()});
  RunOptions two = one;
  two.jobs = 2;
  const RunReport serial = check_paths(testing_support::all_rules(), one);
  const RunReport parallel = check_paths(testing_support::all_rules(), two);
  ASSERT_GT(serial.files.size(), 2u);
  EXPECT_EQ(as_json(serial), as_json(parallel));
}

TEST(CheckPaths, ProgressCountsEveryFileOnce) {
  RunOptions options = options_for({kGoldens.string()});
  options.jobs = 2;
  std::vector<std::size_t> done;
  std::size_t total = 0;
  options.progress = [&](std::size_t n, std::size_t of) {
    done.push_back(n);
    total = of;
  };
  const RunReport report = check_paths(testing_support::all_rules(), options);
  ASSERT_EQ(done.size(), report.files.size());
  for (std::size_t i = 0; i < done.size(); ++i) EXPECT_EQ(done[i], i + 1);
  EXPECT_EQ(total, report.files.size());
}

TEST(CheckPaths, BaselineAcceptsKnownFindingsAndListsStaleEntries) {
  const fs::path baseline = scratch("baseline") / "baseline.json";
  RunOptions update = options_for({kGoldens.string()});
  update.baseline = baseline.string();
  update.update_baseline = true;
  const RunReport written = check_paths(testing_support::all_rules(), update);
  ASSERT_FALSE(written.stopped);
  ASSERT_TRUE(fs::exists(baseline));
  const ReportCounts all = count_findings(written);
  EXPECT_EQ(all.baselined, all.errors + all.warnings + all.notes);
  EXPECT_EQ(all.failing, 0u);

  // The same files without one rule: that rule's entries were not looked for, so they are not
  // stale (`--update-baseline` in such a run would drop accepted findings).
  RunOptions later = options_for({kGoldens.string()});
  later.baseline = baseline.string();
  later.rules.command_line.ignore = {"state-dict-mismatch"};
  const RunReport report = check_paths(testing_support::all_rules(), later);
  ASSERT_FALSE(report.stopped);
  EXPECT_EQ(count_findings(report).failing, 0u);
  EXPECT_TRUE(report.stale_baseline.empty());

  // An entry of a rule that ran on its file and found nothing is stale; the same entry of a
  // rule that did not run is not.
  Expected<Baseline> read_back = read_baseline(baseline);
  ASSERT_TRUE(read_back.ok()) << read_back.message();
  Baseline forged = std::move(read_back).value();
  ASSERT_FALSE(forged.entries.empty());
  BaselineEntry gone = forged.entries[0];
  gone.fingerprint = "0000000000000000";
  forged.entries.push_back(gone);
  std::vector<FileResult> files = written.files;
  const std::vector<BaselineEntry> stale =
      apply_baseline(forged, files, nullptr, [](const FileResult&, std::string_view) { return true; });
  ASSERT_EQ(stale.size(), 1u);
  EXPECT_EQ(stale[0].fingerprint, gone.fingerprint);
  EXPECT_TRUE(apply_baseline(forged, files, nullptr, [&gone](const FileResult&, std::string_view rule) {
                return rule != gone.rule;
              }).empty());

  // A first run: a baseline that does not exist yet reads as empty, with a note.
  RunOptions missing = options_for({kGoldens.string()});
  missing.baseline = (baseline.parent_path() / "absent.json").string();
  const RunReport first = check_paths(testing_support::all_rules(), missing);
  EXPECT_FALSE(first.stopped);
  EXPECT_TRUE(first.errors.empty());
  EXPECT_FALSE(first.files.empty());
  EXPECT_NE(first.baseline_note.find("--update-baseline"), std::string::npos);
  EXPECT_EQ(count_findings(first).baselined, 0u);
}

TEST(CheckPaths, MissingPathIsAnErrorButTheRestIsChecked) {
  const RunReport report = check_paths(testing_support::all_rules(), options_for({"no/such/file.pt2", kGoldens.string()}));
  EXPECT_FALSE(report.stopped);
  ASSERT_EQ(report.errors.size(), 1u);
  EXPECT_EQ(report.errors[0], "cannot open 'no/such/file.pt2': no such file or directory");
  EXPECT_FALSE(report.files.empty());
}

TEST(CheckPaths, UnknownSelectorStopsTheRun) {
  RunOptions options = options_for({kGoldens.string()});
  options.rules.command_line.select = {"no-such-rule"};
  const RunReport report = check_paths(testing_support::all_rules(), options);
  EXPECT_TRUE(report.stopped);
  EXPECT_TRUE(report.files.empty());
  ASSERT_EQ(report.errors.size(), 1u);
}

TEST(CheckPaths, StandardInputGoesByItsGivenName) {
  const fs::path golden = kGoldens / "bad_lifted_name.textproto";
  std::ifstream file(golden);
  std::stringstream input;
  input << file.rdbuf();
  RunOptions options = options_for({"-"});
  options.standard_input = &input;
  options.stdin_filename = "models/piped.textproto";
  const RunReport report = check_paths(testing_support::all_rules(), options);
  ASSERT_EQ(report.files.size(), 1u);
  EXPECT_EQ(report.files[0].path, "models/piped.textproto");
  EXPECT_EQ(actual_findings(report.files[0]), expected_findings(golden));

  RunOptions twice = options_for({"-", "-"});
  twice.standard_input = &input;
  EXPECT_TRUE(check_paths(testing_support::all_rules(), twice).stopped);
}

TEST(CheckPaths, ShardsSplitTheFilesWithoutOverlap) {
  std::vector<std::string> all, sharded;
  for (const FileResult& file : check_paths(testing_support::all_rules(), options_for({kGoldens.string()})).files)
    all.push_back(file.path);
  for (unsigned i = 1; i <= 3; ++i) {
    RunOptions options = options_for({kGoldens.string()});
    options.shard = Shard{i, 3};
    for (const FileResult& file : check_paths(testing_support::all_rules(), options).files) sharded.push_back(file.path);
  }
  std::sort(sharded.begin(), sharded.end());
  EXPECT_EQ(sharded, all);
}

}  // namespace
}  // namespace pt2lint
