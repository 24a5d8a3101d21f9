// Every repair edit in the JSON report and in SARIF's fixes says whether it is safe and what
// decided it (docs/fix.md, "Safe and unsafe edits"); a fix with one unsafe edit is unsafe as a
// whole, and its SARIF command carries --unsafe-fixes.
#include <gtest/gtest.h>

#include <sstream>
#include <string>

#include "reports/formats.h"
#include "render_report.h"

namespace pt2lint {
namespace {

RunReport report_of_edits(std::vector<SignatureEdit> edits) {
  Finding f;
  f.rule_id = "PT206";
  f.rule_name = "state-dict-mismatch";
  f.program = "model";
  f.message = "persistent buffer `total` has no entry in the weights";
  f.root_cause = "state-entry-renamed";
  f.fix = SuggestedFix{"rename the entry back", "", std::move(edits)};
  FileResult file;
  file.path = "m.pt2";
  file.findings.push_back(f);
  RunReport report;
  report.files.push_back(file);
  return report;
}

SignatureEdit labelled_edit(EditOp op, EditProof proof) {
  SignatureEdit e{op, 0, 1};
  e.proof = std::move(proof);
  return e;
}

TEST(EditLabels, JsonAndSarifSaySafeAndTheEvidence) {
  const RunReport report =
      report_of_edits({labelled_edit(EditOp::kRetarget, {EditEvidence::kDataflow, "dataflow: the update origin of the value"})});
  const std::string json = render_report("json", report);
  EXPECT_NE(json.find("\"safety\": \"safe\",\n"), std::string::npos) << json;
  EXPECT_NE(json.find("\"proof\": \"dataflow\""), std::string::npos) << json;
  EXPECT_NE(json.find("\"proof_text\": \"dataflow: the update origin of the value\""), std::string::npos);
  const std::string sarif = render_report("sarif", report);
  EXPECT_NE(sarif.find("\"command\": \"pt2lint fix m.pt2 -o m.pt2\",\n"), std::string::npos) << sarif;
  EXPECT_NE(sarif.find("(safe: every edit is proven):"), std::string::npos) << sarif;
  EXPECT_NE(sarif.find(" [safe, dataflow]"), std::string::npos) << sarif;
  EXPECT_EQ(sarif.find("\"safety\": \"unsafe\""), std::string::npos) << sarif;
  EXPECT_EQ(sarif.find("[unsafe"), std::string::npos) << sarif;
}

TEST(EditLabels, OneNameSimilarityEditMakesTheFixUnsafe) {
  const RunReport report = report_of_edits(
      {labelled_edit(EditOp::kRetarget, {EditEvidence::kDataflow, "dataflow"}),
       labelled_edit(EditOp::kRename, {EditEvidence::kNameSimilarity, "name similarity only: `total_saved` is near"})});
  const std::string json = render_report("json", report);
  EXPECT_NE(json.find("\"safety\": \"unsafe\""), std::string::npos) << json;
  EXPECT_NE(json.find("\"proof\": \"name-similarity\""), std::string::npos) << json;
  const std::string sarif = render_report("sarif", report);
  const std::size_t command = sarif.find("\"command\": \"pt2lint fix m.pt2 -o m.pt2 --unsafe-fixes\"");
  ASSERT_NE(command, std::string::npos) << sarif;
  // The property bag: the fix's own safety comes right after its command, before the edits.
  EXPECT_EQ(sarif.find("\"safety\"", command), sarif.find("\"safety\": \"unsafe\"", command));
  EXPECT_LT(sarif.find("\"safety\"", command), sarif.find("\"edits\"", command)) << sarif;
  EXPECT_NE(sarif.find(" [unsafe, name-similarity]"), std::string::npos) << sarif;
  EXPECT_NE(sarif.find(" [safe, dataflow]"), std::string::npos) << sarif;
}

TEST(EditLabels, AnEditWithoutProofIsNeverSafe) {
  const SignatureEdit unproven{EditOp::kRemove, 3};
  EXPECT_FALSE(unproven.proof.safe());
  const std::string json = render_report("json", report_of_edits({unproven}));
  EXPECT_NE(json.find("\"safety\": \"unsafe\""), std::string::npos) << json;
  EXPECT_EQ(json.find("\"proof\""), std::string::npos) << "no evidence is claimed";
}

}  // namespace
}  // namespace pt2lint
