// `lower`, `diff` and `fix` as library calls (lowering/lower_program.h, contract/diff_programs.h,
// lowering/repair_paths.h), on the real Hugging Face Llama exports of tests/data/device/seedbugs:
// the plain data each returns is what the CLI prints, so it is asserted here directly.
#include <gtest/gtest.h>

#include <filesystem>
#include <fstream>
#include <sstream>
#include <string>
#include <vector>

#include "contract/diff_programs.h"
#include "io/readers/loaded_programs.h"
#include "core/rule_registry.h"
#include "lowering/lower_program.h"
#include "lowering/repair_paths.h"
#include "rules/register_all_rules.h"

namespace pt2lint {
namespace {

namespace fs = std::filesystem;

const fs::path kSeedbugs = fs::path(PT2LINT_TESTS_DIR) / "data" / "device" / "seedbugs";

fs::path scratch(const std::string& name) {
  const fs::path dir = fs::path(testing::TempDir()) / "pt2lint_commands_library";
  fs::create_directories(dir);
  const fs::path path = dir / name;
  fs::remove(path);
  return path;
}

const RuleRegistry& all_rules() {
  static const RuleRegistry registry = [] {
    RuleRegistry r;
    register_all_rules(r);
    return r;
  }();
  return registry;
}

TEST(LowerProgram, LowersTheTrainingExportAndRecordsTheRenames) {
  lowering::LowerOptions options;
  options.input = (kSeedbugs / "hf_llama_clean.pt2").string();
  options.output = scratch("llama.lowered.pt2").string();
  options.rename_nested = true;
  const lowering::LowerReport report = lowering::lower_program(options);
  ASSERT_EQ(report.outcome, lowering::LowerOutcome::kLowered) << report.error;
  ASSERT_EQ(report.lowered.size(), 1u);
  EXPECT_EQ(report.lowered[0].writes, 4);  // the four KV-cache writes of two layers
  ASSERT_TRUE(report.lowered[0].renames.has_value());
  EXPECT_EQ(report.lowered[0].renames->size(), 6u);
  EXPECT_EQ(report.lowered[0].renames->front().second, "lifted_buf_model_model_layers_0_self_attn_k_cache");

  // What was written reads back as one usable program, and keeps the original's contract
  // under the mapping it records.
  ASSERT_TRUE(load_programs(options.output).usable());
  const DiffReport diff = diff_programs({options.input, options.output, "", {}});
  ASSERT_EQ(diff.outcome, DiffOutcome::kCompared);
  EXPECT_TRUE(diff.findings.empty()) << diff.findings.front().message;
  EXPECT_EQ(diff.verdict, ContractVerdict::kKept);
  ASSERT_EQ(diff.after_contracts.size(), 1u);
  EXPECT_EQ(diff_renames(diff, options.output, diff.after_contracts[0]).value().size(), 6u);
}

TEST(LowerProgram, WritesToTheGivenStreamForDash) {
  lowering::LowerOptions options;
  options.input = (kSeedbugs / "hf_llama_clean.pt2").string();
  options.output = "-";
  options.format = lowering::OutputFormat::kTextproto;
  std::ostringstream out;
  options.standard_output = &out;
  const lowering::LowerReport report = lowering::lower_program(options);
  ASSERT_EQ(report.outcome, lowering::LowerOutcome::kLowered) << report.error;
  EXPECT_NE(out.str().find("programs {"), std::string::npos);
  EXPECT_NE(out.str().find("ATEN"), std::string::npos);
}

TEST(LowerProgram, RefusesAProgramWhoseLoweringFailsItsOwnCheckAndWritesNothing) {
  lowering::LowerOptions options;
  options.input = (kSeedbugs / "hf_llama__dropped_write_back.pt2").string();
  options.output = scratch("dropped.lowered.pt2").string();
  const lowering::LowerReport report = lowering::lower_program(options);
  EXPECT_EQ(report.outcome, lowering::LowerOutcome::kRefused);
  EXPECT_TRUE(report.lowered.empty());
  EXPECT_NE(report.error.find(":model: cannot lower: the lowered program fails `check`"), std::string::npos)
      << report.error;
  EXPECT_NE(report.error.find("PT303"), std::string::npos) << report.error;
  EXPECT_TRUE(report.error.ends_with("; nothing was written")) << report.error;
  EXPECT_FALSE(fs::exists(options.output));
}

TEST(LowerProgram, AMissingInputIsUnusableAndABadSchemaFileIsNamed) {
  lowering::LowerOptions missing;
  missing.input = (kSeedbugs / "no_such.pt2").string();
  missing.output = scratch("never.pt2").string();
  const lowering::LowerReport unusable = lowering::lower_program(missing);
  EXPECT_EQ(unusable.outcome, lowering::LowerOutcome::kUnusable);
  EXPECT_FALSE(unusable.input.readable);

  lowering::LowerOptions bad = missing;
  bad.input = (kSeedbugs / "hf_llama_clean.pt2").string();
  bad.op_schemas = {(kSeedbugs / "no_such_schemas.txt").string()};
  const lowering::LowerReport refused = lowering::lower_program(bad);
  EXPECT_EQ(refused.outcome, lowering::LowerOutcome::kBadOpSchemas);
  ASSERT_EQ(refused.schema_problems.size(), 1u);
  EXPECT_NE(refused.schema_problems[0].find("no_such_schemas.txt"), std::string::npos);
  EXPECT_FALSE(fs::exists(bad.output));
}

TEST(DiffPrograms, ADroppedWriteBackBreaksTheContract) {
  const DiffReport report = diff_programs({(kSeedbugs / "hf_llama_clean.aten.pt2").string(),
                                           (kSeedbugs / "hf_llama__dropped_write_back.pt2").string(), "", {}});
  ASSERT_EQ(report.outcome, DiffOutcome::kCompared);
  EXPECT_EQ(report.verdict, ContractVerdict::kBroken);
  ASSERT_FALSE(report.findings.empty());
  bool names_the_cache = false;
  for (const Finding& f : report.findings)
    names_the_cache = names_the_cache || f.message.find("self_attn.v_cache") != std::string::npos;
  EXPECT_TRUE(names_the_cache) << report.findings.front().message;
}

TEST(DiffPrograms, ABadRenameMapStopsBeforeLoading) {
  const fs::path map = scratch("map.json");
  { std::ofstream(map) << "{\"a\": 1}"; }
  const std::string clean = (kSeedbugs / "hf_llama_clean.aten.pt2").string();
  const DiffReport report = diff_programs({clean, clean, map.string(), {}});
  EXPECT_EQ(report.outcome, DiffOutcome::kBadRenameMap);
  EXPECT_EQ(report.error, "'" + map.string() + "': the value of \"a\" is not a string");
  EXPECT_FALSE(report.before.readable);  // not loaded
}

TEST(RepairPaths, RepairsTheDroppedWriteBackAndTheRepairDiffsClean) {
  lowering::FixOptions options;
  options.inputs = {(kSeedbugs / "hf_llama__dropped_write_back.pt2").string()};
  options.output = scratch("dropped.fixed.pt2").string();
  std::vector<lowering::FileFix> seen;
  options.on_file = [&](const lowering::FileFix& fix) { seen.push_back(fix); };
  lowering::FixReport report = lowering::repair_paths(all_rules(), options);
  ASSERT_EQ(report.stop, lowering::FixStop::kDone);
  EXPECT_FALSE(report.many);
  EXPECT_EQ(report.counts[lowering::FixOutcome::kRepaired], 1);
  ASSERT_EQ(seen.size(), 1u);
  const lowering::FileFix& fix = seen[0];
  EXPECT_EQ(fix.outcome, lowering::FixOutcome::kRepaired) << fix.error;
  EXPECT_EQ(fix.edits, 1u);
  ASSERT_EQ(fix.repaired.size(), 1u);
  ASSERT_EQ(fix.repaired[0].causes.size(), 1u);
  EXPECT_EQ(fix.repaired[0].causes[0].kind, "dropped-write-back");
  ASSERT_EQ(fix.repaired[0].causes[0].edits.size(), 1u);
  EXPECT_EQ(fix.repaired[0].causes[0].edits[0].target, "model.model.layers.0.self_attn.v_cache");
  EXPECT_TRUE(fix.error.empty());
  EXPECT_FALSE(fix.errors_before.empty());

  // The written repair keeps the clean program's contract.
  const DiffReport diff =
      diff_programs({(kSeedbugs / "hf_llama_clean.aten.pt2").string(), options.output, "", {}});
  ASSERT_EQ(diff.outcome, DiffOutcome::kCompared);
  EXPECT_EQ(diff.verdict, ContractVerdict::kKept) << diff.findings.front().message;
}

TEST(RepairPaths, ADryRunOverManyFilesCountsEachOutcomeAndWritesNothing) {
  lowering::FixOptions options;
  options.inputs = {(kSeedbugs / "hf_llama_clean.aten.pt2").string(),
                    (kSeedbugs / "hf_llama__rename_one_side.pt2").string()};
  options.dry_run = true;
  std::vector<lowering::FileFix> seen;
  options.on_file = [&](const lowering::FileFix& fix) { seen.push_back(fix); };
  lowering::FixReport report = lowering::repair_paths(all_rules(), options);
  EXPECT_TRUE(report.many);
  EXPECT_EQ(report.counts[lowering::FixOutcome::kClean], 1);
  EXPECT_EQ(report.counts[lowering::FixOutcome::kRepaired], 1);
  ASSERT_EQ(seen.size(), 2u);
  EXPECT_EQ(seen[1].edits, 4u);  // four targets renamed back
  EXPECT_NE(seen[1].diff.find("(repaired)"), std::string::npos);
  EXPECT_NE(seen[1].diff.find("+"), std::string::npos);
}

TEST(RepairPaths, AMissingPathStopsEverything) {
  lowering::FixOptions options;
  options.inputs = {(kSeedbugs / "no_such.pt2").string()};
  options.dry_run = true;
  int files = 0;
  options.on_file = [&](const lowering::FileFix&) { ++files; };
  const lowering::FixReport report = lowering::repair_paths(all_rules(), options);
  EXPECT_EQ(report.stop, lowering::FixStop::kMissingPaths);
  ASSERT_EQ(report.missing.size(), 1u);
  EXPECT_EQ(files, 0);
}

}  // namespace
}  // namespace pt2lint
