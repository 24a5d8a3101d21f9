#include <gtest/gtest.h>

#include <fstream>
#include <set>
#include <sstream>

#include "core/rule_catalogue.h"
#include "core/rule_registry.h"
#include "engine/baseline/baseline.h"
#include "engine/baseline/fingerprint.h"
#include "rules/register_all_rules.h"

namespace pt2lint {
namespace {

Finding finding(std::string rule, std::string program, std::string op, std::string fqn,
                std::string node) {
  Finding f;
  f.rule_id = "PT" + rule;
  f.rule_name = rule + "-name";
  f.program = std::move(program);
  f.op = std::move(op);
  f.state_fqn = std::move(fqn);
  f.location.node = std::move(node);
  f.message = "message about " + f.location.node;
  return f;
}

FileResult file_with(std::string path, std::vector<Finding> findings) {
  FileResult file;
  file.path = std::move(path);
  file.findings = std::move(findings);
  return file;
}

TEST(BaselineFingerprint, IgnoresNodeNamesLinesAndMessages) {
  Finding a = finding("204", "model", "aten.add_.Tensor", "count", "add_3");
  Finding b = a;
  b.location.node = "add_7";  // renumbered by a re-export
  b.message = "other words";
  b.stack_trace = "File \"/x.py\", line 99, in forward\n";
  EXPECT_EQ(file_fingerprints(file_with("m.pt2", {a})), file_fingerprints(file_with("./m.pt2", {b})));
}

TEST(BaselineFingerprint, DistinguishesRuleProgramOpStateAndFile) {
  Finding base = finding("204", "model", "aten.add_.Tensor", "count", "n");
  std::vector<Finding> variants = {base, finding("205", "model", "aten.add_.Tensor", "count", "n"),
                                   finding("204", "decode", "aten.add_.Tensor", "count", "n"),
                                   finding("204", "model", "aten.mul_.Tensor", "count", "n"),
                                   finding("204", "model", "aten.add_.Tensor", "total", "n")};
  std::vector<std::string> prints = file_fingerprints(file_with("m.pt2", variants));
  std::set<std::string> hashes;
  for (const std::string& p : prints) hashes.insert(p.substr(0, p.find(':')));
  EXPECT_EQ(hashes.size(), variants.size());
  EXPECT_NE(file_fingerprints(file_with("a.pt2", {base})), file_fingerprints(file_with("b.pt2", {base})));
}

TEST(BaselineFingerprint, SameIdentityIsToldApartByOccurrence) {
  Finding spec = finding("201", "model", "", "", "");
  spec.location.input_spec = 2;
  std::vector<std::string> prints = file_fingerprints(file_with("m.pt2", {spec, spec}));
  ASSERT_EQ(prints.size(), 2u);
  EXPECT_EQ(prints[0].substr(prints[0].size() - 2), ":1");
  EXPECT_EQ(prints[1].substr(prints[1].size() - 2), ":2");
  Finding other_spec = spec;
  other_spec.location.input_spec = 3;
  EXPECT_NE(file_fingerprints(file_with("m.pt2", {spec})), file_fingerprints(file_with("m.pt2", {other_spec})));
}

TEST(Baseline, RoundTripMarksKnownFindingsAndListsStaleOnes) {
  std::vector<FileResult> before = {
      file_with("zoo/a.pt2", {finding("204", "model", "op", "x", "n1"), finding("306", "model", "", "y", "")}),
      file_with("zoo/b.pt2", {finding("204", "model", "op", "z", "n2")})};
  std::ostringstream written;
  write_baseline(before, written);
  std::string path = testing::TempDir() + "/pt2lint_baseline_test.json";
  std::ofstream(path) << written.str();
  Expected<Baseline> read = read_baseline(path);
  ASSERT_TRUE(read.ok()) << read.message();
  const Baseline& baseline = read.value();
  ASSERT_EQ(baseline.entries.size(), 3u);
  EXPECT_EQ(baseline.entries[0].file, "zoo/a.pt2");

  // a.pt2: one finding fixed, one new; b.pt2 is not part of this run (another shard).
  std::vector<FileResult> after = {
      file_with("zoo/a.pt2", {finding("204", "model", "op", "x", "n9"), finding("204", "model", "op", "new", "n")})};
  std::vector<BaselineEntry> stale = apply_baseline(baseline, after);
  EXPECT_TRUE(after[0].findings[0].baselined);
  EXPECT_FALSE(after[0].findings[1].baselined);
  ASSERT_EQ(stale.size(), 1u);
  EXPECT_EQ(stale[0].rule, "PT306");
}

// README, "Stability": a renamed rule keeps matching the baseline written under its old name.
TEST(Baseline, ARenamedRuleMatchesEntriesUnderItsFormerName) {
  Finding old_name = finding("208", "model", "", "", "n1");
  old_name.rule_name = "values-named-once";
  Baseline baseline;
  for (const std::string& print : file_fingerprints(file_with("a.pt2", {old_name})))
    baseline.entries.push_back({print, "a.pt2", "model", "PT208", "values-named-once", ""});

  Finding renamed = old_name;
  renamed.rule_name = "value-names-unique";
  std::vector<FileResult> without_alias = {file_with("a.pt2", {renamed})};
  EXPECT_EQ(apply_baseline(baseline, without_alias).size(), 1u);
  EXPECT_FALSE(without_alias[0].findings[0].baselined);

  RuleRegistry registry;
  register_all_rules(registry);
  registry.add_alias("values-named-once", kValueNamesUnique);
  std::vector<FileResult> with_alias = {file_with("a.pt2", {renamed})};
  EXPECT_TRUE(apply_baseline(baseline, with_alias, &registry).empty());
  EXPECT_TRUE(with_alias[0].findings[0].baselined);
}

TEST(Baseline, RejectsFilesThatAreNotBaselines) {
  std::string path = testing::TempDir() + "/pt2lint_not_a_baseline.json";
  std::ofstream(path) << "{\"version\": 99, \"findings\": []}";
  const Expected<Baseline> wrong = read_baseline(path);
  EXPECT_FALSE(wrong.ok());
  EXPECT_NE(wrong.message().find("not a pt2lint baseline"), std::string::npos) << wrong.message();
  EXPECT_FALSE(read_baseline(path + ".missing").ok());
}

}  // namespace
}  // namespace pt2lint
