// The review-bot formats at the sizes that break them: a rotation of 8 specs (one root cause,
// 8 findings) is one markdown entry, one annotation and one JUnit failure per rule; thousands
// of findings keep the markdown under GitHub's 65,536-character limit with a closing count;
// annotations stop at GitHub's 10 per level; the fix and the grouping reach every message.
#include <gtest/gtest.h>

#include <sstream>
#include <string>

#include "reports/formats.h"

namespace pt2lint {
namespace {

Finding finding(std::string rule_id, std::string rule_name, Severity severity, std::string message) {
  Finding f;
  f.rule_id = std::move(rule_id);
  f.rule_name = std::move(rule_name);
  f.severity = severity;
  f.program = "model";
  f.message = std::move(message);
  return f;
}

// One file whose 8 output specs were rotated: a PT202 primary explaining 7 more.
FileResult rotated_file() {
  FileResult file;
  file.path = "models/rotated.pt2";
  Finding primary = finding("PT202", "output-specs-match-graph-outputs", Severity::kError,
                            "the output specs are rotated by one against the graph outputs");
  primary.root_cause = "misaligned-specs";
  primary.fix = SuggestedFix{"rotate the output specs back by one", "", {}};
  primary.fix->edits.push_back(SignatureEdit{EditOp::kMoveSpec, 7, 0});
  for (int i = 1; i <= 7; ++i) primary.related.push_back(i);
  file.findings.push_back(primary);
  for (int i = 1; i <= 7; ++i) {
    Finding grouped = finding("PT202", "output-specs-match-graph-outputs", Severity::kError,
                              "output spec " + std::to_string(i) + " names the wrong graph output");
    grouped.cause = 0;
    file.findings.push_back(grouped);
  }
  return file;
}

std::string render(std::string_view format, const RunReport& report, RenderOptions options = {}) {
  std::ostringstream out;
  make_renderer(format)->render(report, options, out);
  return out.str();
}

std::size_t count(const std::string& text, const std::string& needle) {
  std::size_t n = 0;
  for (std::size_t at = text.find(needle); at != std::string::npos; at = text.find(needle, at + 1)) ++n;
  return n;
}

TEST(ReviewBots, RotationOfEightSpecsIsOneMarkdownEntryAndOneAnnotation) {
  RunReport report;
  report.files.push_back(rotated_file());
  std::string md = render("markdown", report);
  EXPECT_EQ(count(md, "| :x: error |"), 1u) << md;
  EXPECT_NE(md.find("8 findings in 1 entry"), std::string::npos) << md;
  EXPECT_NE(md.find("explains 7 more findings (7 PT202 output-specs-match-graph-outputs)"), std::string::npos);
  EXPECT_NE(md.find("fix: rotate the output specs back by one"), std::string::npos);
  EXPECT_EQ(md.find("more findings in the full report"), std::string::npos) << "nothing was left out";
  std::string github = render("github", report);
  EXPECT_EQ(count(github, "::error "), 1u) << github;
  EXPECT_NE(github.find("fix: rotate the output specs back by one%0Aexplains 7 more findings"), std::string::npos);
}

TEST(ReviewBots, GroupedFindingsNameTheirPrimaryAndSarifCarriesFixes) {
  RunReport report;
  report.files.push_back(rotated_file());
  std::string sarif = render("sarif", report);
  EXPECT_EQ(count(sarif, "\"fixes\""), 1u) << "only the finding with edits has fixes";
  EXPECT_EQ(count(sarif, "caused by the misaligned-specs reported as PT202"), 7u);
  EXPECT_EQ(count(sarif, "\"text\": \"caused by [PT202"), 7u) << "relatedLocations back to the primary";
  std::string rdjson = render("rdjson", report);
  EXPECT_EQ(count(rdjson, "\"related_locations\""), 1u);
  std::string junit = render("junit", report);
  EXPECT_EQ(count(junit, "<failure "), 1u) << "one case per program and rule";
  EXPECT_NE(junit.find("explains 7 more findings"), std::string::npos);
}

TEST(ReviewBots, MarkdownStaysUnderGithubsCommentLimitAndCountsWhatItLeavesOut) {
  RunReport report;
  for (int f = 0; f < 300; ++f) {
    FileResult file;
    file.path = "zoo/model_" + std::to_string(f) + ".pt2";
    for (int i = 0; i < 5; ++i) {
      Finding x = finding("PT204", "mutation-target-resolves", Severity::kError,
                          std::string(400, 'm') + " <&|> " + std::to_string(i));
      x.notes = {std::string(600, 'n')};
      x.fix = SuggestedFix{std::string(200, 'f'), "", {}};
      file.findings.push_back(x);
    }
    report.files.push_back(file);
  }
  RenderOptions options;
  options.full_report = "pt2lint-report";
  std::string md = render("markdown", report, options);
  EXPECT_LE(md.size(), 65536u);
  EXPECT_EQ(md.rfind("## pt2lint\n", 0), 0u) << "the summary comes first";
  std::size_t rows = count(md, "| :x: error |");
  EXPECT_GT(rows, 50u);
  EXPECT_NE(md.find("Notes are left out here"), std::string::npos);
  EXPECT_NE(md.find(std::to_string(1500 - rows) + " more findings in the full report (`pt2lint-report`)."),
            std::string::npos) << md.substr(md.size() - 300);
  std::string github = render("github", report);
  EXPECT_EQ(count(github, "::error "), 10u) << "GitHub shows 10 annotations per level and step";
  EXPECT_NE(github.find("pt2lint: 1490 more root causes are not annotated"), std::string::npos);
}

TEST(ReviewBots, JunitNeverFailsOnWarningsOrNotes) {
  RunReport report;
  FileResult file;
  file.path = "models/warned.pt2";
  file.findings.push_back(finding("PT307", "output-aliases-state", Severity::kWarning, "a view of state"));
  file.findings.push_back(finding("PT104", "aotinductor-package", Severity::kNote, "compiled"));
  report.files.push_back(file);
  std::string junit = render("junit", report);
  EXPECT_EQ(junit.find("<failure"), std::string::npos) << junit;
  EXPECT_NE(junit.find("failures=\"0\""), std::string::npos);
  EXPECT_EQ(count(junit, "<system-out>"), 2u);
}

}  // namespace
}  // namespace pt2lint
