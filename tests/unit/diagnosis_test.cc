// The diagnosis pass (src/diagnosis): renaming patterns, signature edits, the diff of
// `fix --dry-run`, and the repair plans of the diagnosis goldens.
#include <fstream>
#include <sstream>

#include <google/protobuf/text_format.h>
#include <gtest/gtest.h>

#include "program.pb.h"
#include "analysis/program_index.h"
#include "diagnosis/rename_pattern.h"
#include "diagnosis/repair_plan.h"
#include "diagnosis/repair_program.h"
#include "diagnosis/signature_draft.h"
#include "diagnosis/signature_text.h"

namespace pt2lint::diagnosis {
namespace {

ir::Program golden(const std::string& name) {
  std::ifstream in(std::string(PT2LINT_TESTS_DIR) + "/golden/diagnosis/" + name);
  std::stringstream text;
  text << in.rdbuf();
  ir::Program program;  // a golden holds one Program in text form
  EXPECT_TRUE(google::protobuf::TextFormat::ParseFromString(text.str(), &program)) << name;
  return program;
}

TEST(RenamePattern, LiftedPrefixAndUnderscores) {
  auto p = infer_rename("layers.0.kv.k_cache", "lifted_buf_layers_0_kv_k_cache");
  ASSERT_TRUE(p);
  EXPECT_EQ(p->added_prefix, "lifted_buf_");
  EXPECT_TRUE(p->dots_as_underscores);
  EXPECT_EQ(p->dropped_prefix, "");
  EXPECT_EQ(p->apply("layers.3.kv.v_cache"), "lifted_buf_layers_3_kv_v_cache");
  EXPECT_EQ(p->describe(), "the prefix `lifted_buf_` added and dots written as underscores");
}

TEST(RenamePattern, DroppedModulePath) {
  auto p = infer_rename("model.layers.0.k", "layers.0.k");
  ASSERT_TRUE(p);
  EXPECT_EQ(p->dropped_prefix, "model.");
  EXPECT_FALSE(p->dots_as_underscores);
  EXPECT_EQ(p->added_prefix, "");
}

TEST(RenamePattern, UnrelatedNamesHaveNone) {
  EXPECT_FALSE(infer_rename("count", "no.such.buffer"));
  EXPECT_FALSE(infer_rename("count", "count"));
}

TEST(SignatureDraft, MoveRemoveAndAddKeepSpecsBesideOutputs) {
  ir::Program program = golden("good.textproto");
  SignatureDraft draft;
  ASSERT_TRUE(read_draft(program.program(), draft));
  ASSERT_EQ(draft.outputs.size(), 5u);
  EXPECT_TRUE(apply_edit(draft, {EditOp::kMove, 4, 0}).ok());
  EXPECT_EQ(argument_value_name(draft.outputs[0].output), "view_60");
  EXPECT_EQ(draft.outputs[0].original, 4);
  EXPECT_TRUE(apply_edit(draft, {EditOp::kRemove, 0}).ok());
  EXPECT_EQ(draft.outputs.size(), 4u);
  SignatureEdit add{EditOp::kAddWriteBack, -1, 4, "user_output", "", "view_60"};
  EXPECT_TRUE(apply_edit(draft, add).ok());
  EXPECT_TRUE(draft.outputs[4].spec.has_user_output());
  EXPECT_FALSE(apply_edit(draft, {EditOp::kMove, 9, 0}).ok());  // out of range: refused, not applied
}

TEST(SignatureText, UnifiedDiffShowsOnlyTheChange) {
  EXPECT_EQ(unified_diff({"a", "b"}, {"a", "b"}, "x", "y"), "");
  const std::string diff = unified_diff({"a", "b", "c"}, {"a", "B", "c"}, "x", "y");
  EXPECT_EQ(diff, "--- x\n+++ y\n@@ -1,3 +1,3 @@\n a\n-b\n+B\n c\n");
}

TEST(RepairPlan, SwapIsOneCauseWithTwoRetargets) {
  ir::Program program = golden("bad_swap.textproto");
  const ProgramIndex index(program);
  std::vector<RootCause> causes = plan_repairs(index);
  ASSERT_EQ(causes.size(), 1u);
  EXPECT_EQ(causes[0].kind, "swap");
  ASSERT_EQ(causes[0].edits.size(), 2u);
  EXPECT_EQ(causes[0].edits[0].target, "key_cache_0");
  EXPECT_EQ(causes[0].edits[1].target, "value_cache_0");
}

// Every edit carries its proof (docs/fix.md, "Safe and unsafe edits").
TEST(EditProof, DataflowDecidesASwapAndTheLayoutItsMove) {
  ir::Program swapped = golden("bad_swap.textproto");
  const ProgramIndex swap_index(swapped);
  std::vector<RootCause> causes = plan_repairs(swap_index);
  ASSERT_EQ(causes.size(), 1u);
  for (const SignatureEdit& edit : causes[0].edits) {
    EXPECT_TRUE(edit.proof.safe());
    EXPECT_EQ(edit_evidence_name(edit.proof.evidence), "dataflow");
    // Labelled by what the cause turned out to be (a two-retarget pairing is a swap).
    EXPECT_EQ(edit.proof.reason, "dataflow: each value is the update of the other state");
  }
  ir::Program paired = golden("bad_pairing_by_position.textproto");
  const ProgramIndex pairing_index(paired);
  causes = plan_repairs(pairing_index);
  ASSERT_EQ(causes.size(), 1u);
  ASSERT_EQ(causes[0].edits.size(), 6u);
  for (const SignatureEdit& edit : causes[0].edits) {
    EXPECT_TRUE(edit.proof.safe());
    EXPECT_EQ(edit.proof.evidence, edit.op == EditOp::kMove ? EditEvidence::kLayout : EditEvidence::kDataflow)
        << describe_edit(edit);
  }
}

// Two saved entries of one shape and dtype renamed (`key_cache_0_saved`, `value_cache_0_saved`),
// their specs kept: only the near names tell which entry is which spec's. Unsafe: `fix` refuses
// it without --unsafe-fixes, and applies it with.
ir::Program entries_renamed_same_shape() {
  ir::Program program = golden("good.textproto");
  ir::StateSource& weights = *program.mutable_weights();
  weights.set_present(true);
  for (const std::string fqn : {"key_cache_0", "value_cache_0", "key_cache_1", "value_cache_1"}) {
    ir::PayloadMetaEntry& entry = *weights.mutable_config()->add_config();
    entry.set_key(fqn.ends_with("_0") ? fqn + "_saved" : fqn);
    entry.mutable_value()->set_path_name("weight_" + fqn);
    for (const ir::TensorMetaEntry& value : program.program().graph_module().graph().tensor_values())
      if (value.key() == "b_" + fqn) *entry.mutable_value()->mutable_tensor_meta() = value.value();
    EXPECT_TRUE(entry.value().has_tensor_meta()) << fqn;
  }
  return program;
}

TEST(EditProof, NameSimilarityAloneIsUnsafe) {
  ir::Program program = entries_renamed_same_shape();
  {
    const ProgramIndex index(program);
    std::vector<RootCause> causes = plan_repairs(index);
    ASSERT_EQ(causes.size(), 2u);
    for (const RootCause& cause : causes) {
      EXPECT_EQ(cause.kind, "state-entry-renamed");
      ASSERT_EQ(cause.edits.size(), 1u);
      EXPECT_FALSE(cause.edits[0].proof.safe());
      EXPECT_EQ(edit_evidence_name(cause.edits[0].proof.evidence), "name-similarity");
      EXPECT_NE(cause.edits[0].proof.reason.find("name similarity only"), std::string::npos);
    }
    EXPECT_EQ(causes[0].edits[0].from, "key_cache_0_saved");
    EXPECT_EQ(causes[0].edits[0].target, "key_cache_0");
  }
  ir::Program refused = program;
  ProgramRepair repair = repair_program(refused);
  EXPECT_TRUE(repair.needs_unsafe);
  EXPECT_NE(repair.refusal.find("needs --unsafe-fixes"), std::string::npos) << repair.refusal;
  EXPECT_TRUE(repair.edits.empty());
  repair = repair_program(program, RepairOptions{true});
  EXPECT_EQ(repair.refusal, "");
  EXPECT_TRUE(repair.state_entries_renamed);
  EXPECT_EQ(program.weights().config().config(0).key(), "key_cache_0");
  EXPECT_EQ(program.weights().config().config(1).key(), "value_cache_0");
}

TEST(EditProof, OneOrphanEntryIsDecidedByTheMajorityOfTheSources) {
  // Only key_cache_0's entry renamed: the majority of the sources (spec, targets, placeholder
  // `b_key_cache_0`) decide, with no near name needed.
  ir::Program program = entries_renamed_same_shape();
  program.mutable_weights()->mutable_config()->mutable_config(1)->set_key("value_cache_0");
  const ProgramIndex index(program);
  std::vector<RootCause> causes = plan_repairs(index);
  ASSERT_EQ(causes.size(), 1u);
  EXPECT_EQ(causes[0].kind, "state-entry-renamed");
  ASSERT_EQ(causes[0].edits.size(), 1u);
  EXPECT_TRUE(causes[0].edits[0].proof.safe());
  EXPECT_EQ(edit_evidence_name(causes[0].edits[0].proof.evidence), "majority");
}

TEST(RepairPlan, CleanProgramHasNoCause) {
  ir::Program program = golden("good.textproto");
  const ProgramIndex index(program);
  EXPECT_TRUE(plan_repairs(index).empty());
}

TEST(RepairProgram, PairingByPositionBecomesTheCleanSignature) {
  ir::Program broken = golden("bad_pairing_by_position.textproto");
  const ir::Program good = golden("good.textproto");
  ProgramRepair repair = repair_program(broken);
  ASSERT_EQ(repair.refusal, "");
  ASSERT_EQ(repair.causes.size(), 1u);
  EXPECT_EQ(repair.causes[0].kind, "pairing");
  EXPECT_EQ(broken.program().graph_module().signature().SerializeAsString(),
            good.program().graph_module().signature().SerializeAsString());
  EXPECT_EQ(broken.program().graph_module().graph().SerializeAsString(),
            good.program().graph_module().graph().SerializeAsString());
}

TEST(RepairProgram, AValueOfUnknownOriginIsNotGuessed) {
  ir::Program program = golden("bad_swap.textproto");
  // Make the first update come from an op without a schema: its origin is unknown.
  ir::Node& node = *program.mutable_program()->mutable_graph_module()->mutable_graph()->mutable_nodes(0);
  node.set_target("my_lib.opaque_update.default");
  const std::string before = program.program().graph_module().signature().SerializeAsString();
  ProgramRepair repair = repair_program(program);
  EXPECT_NE(repair.refusal, "");
  EXPECT_TRUE(repair.edits.empty());
  EXPECT_EQ(program.program().graph_module().signature().SerializeAsString(), before);
}

}  // namespace
}  // namespace pt2lint::diagnosis
