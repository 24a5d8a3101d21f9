// Repairs of issue 23 on real PyTorch 2.11 exports (tests/data/fix/device/clean), broken in
// memory as backend passes break them: fresh write-backs placed by elimination, and `fix
// --against ORIGINAL` (diagnosis/promised_write_backs.h): lost write-backs restored, ORIGINAL's
// output signature adopted, an erased computation refused.
#include <gtest/gtest.h>

#include <filesystem>
#include <string>
#include <utility>
#include <vector>

#include "core/ir/ir_accessors.h"
#include "diagnosis/promised_write_backs.h"
#include "diagnosis/repair_program.h"
#include "io/readers/loaded_programs.h"

namespace pt2lint::diagnosis {
namespace {

namespace fs = std::filesystem;

ir::Program clean_program(const std::string& name) {
  const fs::path path = fs::path(PT2LINT_TESTS_DIR) / "data" / "fix" / "device" / "clean" / (name + ".aten.pt2");
  LoadedPrograms loaded = load_programs(path.string());
  EXPECT_TRUE(loaded.usable()) << path;
  return loaded.programs.empty() ? ir::Program{} : loaded.programs.front();
}

ir::GraphSignature& signature(ir::Program& p) { return *p.mutable_program()->mutable_graph_module()->mutable_signature(); }
const ir::GraphSignature& signature(const ir::Program& p) { return p.program().graph_module().signature(); }

std::string target_of(const ir::Program& p, int spec) { return std::string(output_spec_target(signature(p).output_specs(spec))); }

void set_target(ir::Program& p, int spec, const std::string& to) {
  signature(p).mutable_output_specs(spec)->mutable_buffer_mutation()->set_buffer_name(to);
}

bool same_signature(const ir::Program& a, const ir::Program& b) {
  return signature(a).SerializeAsString() == signature(b).SerializeAsString() &&
         a.program().graph_module().graph().SerializeAsString() == b.program().graph_module().graph().SerializeAsString();
}

void drop_output(ir::Program& p, int spec) {
  signature(p).mutable_output_specs()->DeleteSubrange(spec, 1);
  p.mutable_program()->mutable_graph_module()->mutable_graph()->mutable_outputs()->DeleteSubrange(spec, 1);
}

// Every write-back's target moved to the next write-back's: the number of write-backs rotated.
std::size_t rotate_write_back_targets(const ir::Program& clean, ir::Program& broken) {
  std::vector<int> writes;
  std::vector<std::string> targets;
  for (int i = 0; i < signature(clean).output_specs_size(); ++i)
    if (is_mutation_output(signature(clean).output_specs(i))) writes.push_back(i), targets.push_back(target_of(clean, i));
  for (std::size_t k = 0; k < writes.size(); ++k) set_target(broken, writes[k], targets[(k + 1) % targets.size()]);
  return writes.size();
}

int spec_writing(const ir::Program& p, const std::string& state) {
  for (int i = 0; i < signature(p).output_specs_size(); ++i)
    if (is_mutation_output(signature(p).output_specs(i)) && target_of(p, i) == state) return i;
  return -1;
}

// The hybrid cache's sliding window is a fresh value (a rolled `cat`), the global cache an
// update: swapped, the update goes back by its origin and the window by elimination.
TEST(RepairsElimination, ASwappedFreshWindowGoesToTheOnlyStateLeft) {
  const ir::Program clean = clean_program("hybrid_cache");
  ir::Program broken = clean;
  const int window = spec_writing(clean, "window_k"), global = spec_writing(clean, "global_k");
  ASSERT_GE(window, 0);
  ASSERT_GE(global, 0);
  set_target(broken, window, "global_k");
  set_target(broken, global, "window_k");
  const ProgramRepair repair = repair_program(broken);
  ASSERT_TRUE(repair.refusal.empty()) << repair.refusal;
  EXPECT_TRUE(same_signature(broken, clean));
  bool by_elimination = false;
  for (const SignatureEdit& edit : repair.edits) {
    EXPECT_TRUE(edit.proof.safe());
    by_elimination |= edit.proof.reason.find("elimination") != std::string::npos;
  }
  EXPECT_TRUE(by_elimination);
}

// Two fresh cross-attention caches of one shape, every target rotated: elimination alone leaves
// both states to each, but PyTorch writes the mutation outputs in input-spec order, and the two
// write-backs the dataflow decides (the self-attention caches) sit where that order puts them:
// the order decides the fresh ones (a relabel of specs; no value moves).
TEST(RepairsElimination, TwoFreshValuesOfOneShapeArePlacedByInputOrder) {
  const ir::Program clean = clean_program("encdec_cache");
  ir::Program broken = clean;
  ASSERT_EQ(rotate_write_back_targets(clean, broken), 4u);
  const ProgramRepair repair = repair_program(broken);
  ASSERT_TRUE(repair.refusal.empty()) << repair.refusal;
  EXPECT_TRUE(same_signature(broken, clean));
  bool by_order = false;
  for (const SignatureEdit& edit : repair.edits) {
    EXPECT_TRUE(edit.proof.safe());
    by_order |= edit.proof.reason.find("input-spec order") != std::string::npos;
  }
  EXPECT_TRUE(by_order);
}

// The same, after a pass moved two write-back values (spec and value together) out of input-spec
// order: the dataflow-decided write-backs no longer agree with the order, so it decides nothing.
TEST(RepairsElimination, InputOrderIsNotUsedWhenTheDataflowDisagrees) {
  const ir::Program clean = clean_program("encdec_cache");
  ir::Program moved = clean;
  const int self_k = spec_writing(clean, "self_k"), self_v = spec_writing(clean, "self_v");
  ASSERT_GE(self_k, 0);
  ASSERT_GE(self_v, 0);
  signature(moved).mutable_output_specs()->SwapElements(self_k, self_v);
  moved.mutable_program()->mutable_graph_module()->mutable_graph()->mutable_outputs()->SwapElements(self_k, self_v);
  ir::Program broken = moved;
  ASSERT_EQ(rotate_write_back_targets(moved, broken), 4u);
  const ProgramRepair repair = repair_program(broken);
  EXPECT_FALSE(repair.refusal.empty());
  EXPECT_TRUE(repair.edits.empty());
  EXPECT_NE(repair.refusal.find("fresh value"), std::string::npos) << repair.refusal;  // the reason, not "see the notes"
}

// fix-restores-the-seed at seed 41: one write-back retargeted to user input `x` is no rename of
// the state `amax_x` ("prefix amax_ added"): the one name is another input's, and one target is
// no consistent rename. It is a wrong target, retargeted back by the dataflow, no mapping recorded.
TEST(RepairsElimination, OneTargetRetargetedToAUserInputIsNoStateRename) {
  const fs::path path = fs::path(PT2LINT_TESTS_DIR) / "data" / "device" / "soundness" / "fp8_observers.aten.pt2";
  LoadedPrograms loaded = load_programs(path.string());
  ASSERT_TRUE(loaded.usable());
  const ir::Program clean = loaded.programs.front();
  ir::Program broken = clean;
  const int amax_x = spec_writing(clean, "amax_x");
  ASSERT_GE(amax_x, 0);
  set_target(broken, amax_x, "x");
  const ProgramRepair repair = repair_program(broken);
  ASSERT_TRUE(repair.refusal.empty()) << repair.refusal;
  EXPECT_TRUE(repair.followed_renames.empty());
  for (const RootCause& cause : repair.causes) EXPECT_NE(cause.kind, "state-renamed");
  EXPECT_TRUE(same_signature(broken, clean));
}

// A lowering dropped the write-back of a state overwritten whole (`cross_k.copy_(...)`): the
// program alone cannot tell, ORIGINAL can, and the value is still computed the same way.
TEST(RepairsAgainst, RestoresAnOverwriteWriteBackTheOriginalPromises) {
  const ir::Program clean = clean_program("encdec_cache");
  ir::Program lowered = clean;
  const int cross = spec_writing(clean, "cross_k");
  ASSERT_GE(cross, 0);
  const std::string value(output_spec_arg_name(signature(clean).output_specs(cross)));
  drop_output(lowered, cross);
  const PromisedRepair repair = restore_promised_write_backs(lowered, clean, {{"cross_k", value, "cross_k"}});
  ASSERT_TRUE(repair.refusal.empty()) << repair.refusal;
  ASSERT_TRUE(repair.erased.empty()) << repair.erased.front();
  ASSERT_EQ(repair.edits.size(), 1u);
  EXPECT_EQ(repair.edits[0].op, EditOp::kAddWriteBack);
  EXPECT_EQ(repair.edits[0].value, value);
  EXPECT_EQ(repair.edits[0].proof.evidence, EditEvidence::kOriginal);
  EXPECT_TRUE(same_signature(lowered, clean));
}

// The same loss where the value is no longer computed as ORIGINAL computes it: an erased
// computation is named, and nothing is applied.
TEST(RepairsAgainst, AnErasedComputationIsNamedAndNothingIsApplied) {
  const ir::Program clean = clean_program("encdec_cache");
  ir::Program lowered = clean;
  const int cross = spec_writing(clean, "cross_k");
  const std::string value(output_spec_arg_name(signature(clean).output_specs(cross)));
  drop_output(lowered, cross);
  for (ir::Node& node : *lowered.mutable_program()->mutable_graph_module()->mutable_graph()->mutable_nodes())
    for (const ir::Argument& out : node.outputs())
      if (out.has_as_tensor() && out.as_tensor().name() == value) node.set_target("torch.ops.aten.neg.default");
  const ir::Program before = lowered;
  const PromisedRepair repair = restore_promised_write_backs(lowered, clean, {{"cross_k", value, "cross_k"}});
  ASSERT_EQ(repair.erased.size(), 1u);
  EXPECT_NE(repair.erased[0].find("erased computation"), std::string::npos) << repair.erased[0];
  EXPECT_TRUE(repair.edits.empty());
  EXPECT_TRUE(same_signature(lowered, before));
}

// Every target rotated, which the program's own evidence cannot undo (above): ORIGINAL's output
// signature applies, since every output is ORIGINAL's value computed the same way.
TEST(RepairsAgainst, AdoptsTheOriginalOutputsWhenTheProgramAloneCannotDecide) {
  const ir::Program clean = clean_program("encdec_cache");
  ir::Program broken = clean;
  rotate_write_back_targets(clean, broken);
  const PromisedRepair repair = adopt_original_outputs(broken, clean);
  ASSERT_TRUE(repair.refusal.empty()) << repair.refusal;
  EXPECT_EQ(repair.edits.size(), 4u);
  for (const SignatureEdit& edit : repair.edits) EXPECT_EQ(edit.proof.evidence, EditEvidence::kOriginal);
  EXPECT_TRUE(same_signature(broken, clean));

  // Another program's outputs are not this one's: refused, nothing applied.
  ir::Program other = clean_program("hybrid_cache");
  const ir::Program other_before = other;
  const PromisedRepair refused = adopt_original_outputs(other, clean);
  EXPECT_FALSE(refused.refusal.empty());
  EXPECT_TRUE(same_signature(other, other_before));
}

}  // namespace
}  // namespace pt2lint::diagnosis
