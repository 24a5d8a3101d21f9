// The reference lowering against PyTorch's own functionalization, and on the view cases the
// corpus does not exercise.
#include <gtest/gtest.h>

#include <algorithm>

#include "../data/lowering/lowering_test_support.h"
#include "analysis/opschema/op_schema.h"
#include "contract/mutation_contract.h"
#include "lowering/functionalize.h"

namespace pt2lint {
namespace {

using namespace lowering_testing;

bool has_mutable_op(const ir::Program& program) {
  for (const ir::Node& node : program.program().graph_module().graph().nodes()) {
    auto name = opschema::parse_serialized_target(node.target());
    if (!name) continue;
    auto schema = opschema::find_schema(*name);
    if (schema && schema->is_mutable()) return true;
  }
  return false;
}

TEST(LoweringFunctionalize, MatchesPyTorchOnEveryCorpusPair) {
  if (!have_corpus()) GTEST_SKIP() << "corpus not found at " << corpus();
  for (const std::string& name : training_aten_pairs()) {
    std::vector<ir::Program> training = load_clean(corpus() / "base" / (name + ".pt2"));
    std::vector<ir::Program> aten = load_clean(corpus() / "base" / (name + ".aten.pt2"));
    ASSERT_EQ(training.size(), 1u);
    ASSERT_EQ(aten.size(), 1u);
    const auto result = lowering::functionalize(training[0]);
    ASSERT_TRUE(result.ok()) << name << ": " << result.message();
    EXPECT_GT(result->writes, 0) << name;
    EXPECT_FALSE(has_mutable_op(training[0])) << name;
    ASSERT_EQ(training[0].program().verifiers_size(), 1);
    EXPECT_EQ(training[0].program().verifiers(0), "ATEN");
    const ProgramContract lowered = derive_contract(training[0]);
    const ProgramContract expected = derive_contract(aten[0]);
    EXPECT_TRUE(lowered.same_promises(expected)) << name;
    EXPECT_EQ(lowered.writes.size(), expected.writes.size()) << name;
  }
}

// A hand-made TRAINING program around one buffer `buf` (4,) and a user input `x` (3,).
class ViewWrites : public ::testing::Test {
 protected:
  void SetUp() override {
    auto* module = program_.mutable_program()->mutable_graph_module();
    program_.set_name("model");
    program_.mutable_program()->add_verifiers("TRAINING");
    program_.mutable_program()->mutable_schema_version()->set_major(8);
    auto* signature = module->mutable_signature();
    auto* buffer = signature->add_input_specs()->mutable_buffer();
    buffer->mutable_arg()->set_name("b_buf");
    buffer->set_buffer_name("buf");
    buffer->set_persistent(true);
    signature->add_input_specs()->mutable_user_input()->mutable_arg()->mutable_as_tensor()->set_name("x");
    graph()->add_inputs()->mutable_as_tensor()->set_name("b_buf");
    graph()->add_inputs()->mutable_as_tensor()->set_name("x");
    meta("b_buf", 4);
    meta("x", 3);
  }

  ir::Graph* graph() { return program_.mutable_program()->mutable_graph_module()->mutable_graph(); }

  void meta(const std::string& name, int size) {
    auto* entry = graph()->add_tensor_values();
    entry->set_key(name);
    entry->mutable_value()->set_dtype(7);
    entry->mutable_value()->add_sizes()->set_as_int(size);
    entry->mutable_value()->add_strides()->set_as_int(1);
    entry->mutable_value()->mutable_device()->set_type("cpu");
  }

  ir::Node& node(const std::string& target, const std::string& out, int size,
                 std::vector<std::pair<std::string, std::string>> tensors,
                 std::vector<std::pair<std::string, int>> ints = {}) {
    ir::Node& n = *graph()->add_nodes();
    n.set_target(target);
    n.set_name(out);
    for (auto& [name, value] : tensors) {
      auto* input = n.add_inputs();
      input->set_name(name);
      input->mutable_arg()->mutable_as_tensor()->set_name(value);
    }
    for (auto& [name, value] : ints) {
      auto* input = n.add_inputs();
      input->set_name(name);
      input->mutable_arg()->set_as_int(value);
    }
    n.add_outputs()->mutable_as_tensor()->set_name(out);
    meta(out, size);
    return n;
  }

  void user_output(const std::string& value) {
    graph()->add_outputs()->mutable_as_tensor()->set_name(value);
    program_.mutable_program()->mutable_graph_module()->mutable_signature()->add_output_specs()
        ->mutable_user_output()->mutable_arg()->mutable_as_tensor()->set_name(value);
  }

  std::vector<std::string> targets() const {
    std::vector<std::string> out;
    for (const ir::Node& n : program_.program().graph_module().graph().nodes()) out.push_back(n.target());
    return out;
  }

  const ir::Node& node_named(const std::string& name) const {
    for (const ir::Node& n : program_.program().graph_module().graph().nodes())
      if (n.name() == name) return n;
    throw std::runtime_error("no node " + name);
  }

  ir::Program program_;
};

TEST_F(ViewWrites, SliceWriteBecomesSliceScatterAndLaterReadsSeeIt) {
  node("torch.ops.aten.slice.Tensor", "slice_1", 3, {{"self", "b_buf"}}, {{"dim", 0}, {"start", 1}, {"end", 4}});
  node("torch.ops.aten.add_.Tensor", "add_", 3, {{"self", "slice_1"}, {"other", "x"}});
  node("torch.ops.aten.mul.Tensor", "mul", 4, {{"self", "b_buf"}}, {{"other", 2}});
  user_output("mul");

  const auto result = lowering::functionalize(program_);
  ASSERT_TRUE(result.ok()) << result.message();
  EXPECT_EQ(targets(), (std::vector<std::string>{"torch.ops.aten.slice.Tensor", "torch.ops.aten.add.Tensor",
                                                 "torch.ops.aten.slice_scatter.default",
                                                 "torch.ops.aten.mul.Tensor"}));
  const ir::Node& scatter = node_named("slice_scatter");
  EXPECT_EQ(scatter.inputs(0).arg().as_tensor().name(), "b_buf");
  EXPECT_EQ(scatter.inputs(1).arg().as_tensor().name(), "add");
  EXPECT_EQ(node_named("mul").inputs(0).arg().as_tensor().name(), "slice_scatter");
  const auto& specs = program_.program().graph_module().signature().output_specs();
  ASSERT_EQ(specs.size(), 2);
  EXPECT_EQ(specs[0].buffer_mutation().buffer_name(), "buf");
  EXPECT_EQ(specs[0].buffer_mutation().arg().name(), "slice_scatter");
  EXPECT_TRUE(specs[1].has_user_output());
  const ProgramContract contract = derive_contract(program_);
  ASSERT_EQ(contract.writes.size(), 1u);
  EXPECT_EQ(contract.writes[0].base, "buf");
}

TEST_F(ViewWrites, AViewTakenBeforeAWriteIsRegeneratedWhenReadAfterIt) {
  node("torch.ops.aten.slice.Tensor", "slice_1", 3, {{"self", "b_buf"}}, {{"dim", 0}, {"start", 1}, {"end", 4}});
  node("torch.ops.aten.add_.Tensor", "add_", 4, {{"self", "b_buf"}}, {{"other", 1}});
  node("torch.ops.aten.mul.Tensor", "mul", 3, {{"self", "slice_1"}, {"other", "x"}});
  user_output("mul");

  const auto result = lowering::functionalize(program_);
  ASSERT_TRUE(result.ok()) << result.message();
  // mul reads a fresh slice of the updated buffer, not the stale one.
  const std::string read = node_named("mul").inputs(0).arg().as_tensor().name();
  EXPECT_NE(read, "slice_1");
  EXPECT_EQ(node_named(read).target(), "torch.ops.aten.slice.Tensor");
  EXPECT_EQ(node_named(read).inputs(0).arg().as_tensor().name(), "add");
}

// `to` converting nothing returns its input, so a write to its result is a write to the buffer.
// Whether it converted is decided with same_sizes (tensor_meta_predicates.h): a symbolic size
// is the same size whatever hint the exporter recorded for it, and another symbol is not.
class ToAlias : public ViewWrites {
 protected:
  void symbolic(const std::string& name, const std::string& expr, int hint) {
    for (auto& entry : *graph()->mutable_tensor_values()) {
      if (entry.key() != name) continue;
      auto* size = entry.mutable_value()->mutable_sizes(0)->mutable_as_expr();
      size->set_expr_str(expr);
      size->mutable_hint()->set_as_int(hint);
    }
  }

  // The output specs after lowering `to` then `add_` on its result, with `to`'s size `expr`.
  std::vector<std::string> lowered_output_kinds(const std::string& expr) {
    node("torch.ops.aten.to.dtype", "to", 4, {{"self", "b_buf"}}, {{"dtype", 7}});
    node("torch.ops.aten.add_.Tensor", "add_", 4, {{"self", "to"}}, {{"other", 1}});
    user_output("add_");
    symbolic("b_buf", "s0", 4);
    symbolic("to", expr, 8);
    symbolic("add_", expr, 8);
    const auto result = lowering::functionalize(program_);
    EXPECT_TRUE(result.ok()) << result.message();
    std::vector<std::string> kinds;
    for (const auto& spec : program_.program().graph_module().signature().output_specs())
      kinds.push_back(spec.has_buffer_mutation() ? "buffer_mutation" : "other");
    return kinds;
  }
};

TEST_F(ToAlias, SameSymbolicSizeWithAnotherHintIsTheInput) {
  EXPECT_EQ(lowered_output_kinds("s0"), (std::vector<std::string>{"buffer_mutation", "other"}));
}

TEST_F(ToAlias, AnotherSymbolIsAConversion) {
  EXPECT_EQ(lowered_output_kinds("s1"), (std::vector<std::string>{"other"}));
}

TEST_F(ViewWrites, AWriteThroughAnUnknownViewIsRefusedNotApproximated) {
  node("torch.ops.aten.unfold.default", "unfold", 3, {{"self", "b_buf"}}, {{"dimension", 0}, {"size", 2}, {"step", 1}});
  node("torch.ops.aten.add_.Tensor", "add_", 3, {{"self", "unfold"}}, {{"other", 1}});
  user_output("add_");
  const auto result = lowering::functionalize(program_);
  EXPECT_FALSE(result.ok());
  EXPECT_NE(result.message().find("unfold"), std::string::npos) << result.message();
}

TEST_F(ViewWrites, AWrittenConstantIsRefused) {
  auto* spec = program_.mutable_program()->mutable_graph_module()->mutable_signature()->mutable_input_specs(0);
  spec->clear_buffer();
  spec->mutable_tensor_constant()->mutable_arg()->set_name("b_buf");
  spec->mutable_tensor_constant()->set_tensor_constant_name("lifted_tensor_0");
  node("torch.ops.aten.add_.Tensor", "add_", 4, {{"self", "b_buf"}}, {{"other", 1}});
  user_output("add_");
  const auto result = lowering::functionalize(program_);
  EXPECT_FALSE(result.ok());
  EXPECT_NE(result.message().find("register the tensor as a buffer"), std::string::npos) << result.message();
}

}  // namespace
}  // namespace pt2lint
