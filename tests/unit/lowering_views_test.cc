// Every view op of the schema table lowers or is refused by name, and the lowerings of the
// views the corpus does not exercise (narrow, split, chunk, unbind, unfold, expand, movedim)
// produce programs the checker finds clean.
#include <gtest/gtest.h>

#include <google/protobuf/text_format.h>

#include <set>
#include <string>
#include <vector>

#include "analysis/opschema/op_schema.h"
#include "contract/mutation_contract.h"
#include "core/diagnostic_sink.h"
#include "core/rule_registry.h"
#include "engine/engine.h"
#include "lowering/functionalize.h"
#include "lowering/view_ops.h"
#include "rules/register_all_rules.h"

namespace pt2lint {
namespace {

using lowering::ViewLowering;

std::string full_name(const opschema::OpSchema& schema) {
  return schema.overload().empty() ? std::string(schema.name())
                                   : std::string(schema.name()) + "." + std::string(schema.overload());
}

TEST(ViewOps, EveryViewOpOfTheTableIsLoweredOrRefusedByName) {
  const std::set<std::string> expected_lowered = {
      "aten::alias", "aten::as_strided", "aten::broadcast_to", "aten::chunk", "aten::contiguous",
      "aten::detach", "aten::diagonal", "aten::expand", "aten::expand_as", "aten::flatten.using_ints",
      "aten::lift_fresh", "aten::linalg_diagonal", "aten::moveaxis.int", "aten::moveaxis.intlist",
      "aten::movedim.int", "aten::movedim.intlist", "aten::narrow", "aten::permute", "aten::positive",
      "aten::ravel", "aten::reshape", "aten::reshape_as", "aten::select.int", "aten::slice.Tensor",
      "aten::split", "aten::split.Tensor", "aten::split.sizes", "aten::split_with_sizes",
      "aten::squeeze", "aten::squeeze.dim", "aten::squeeze.dims",
      "aten::swapaxes", "aten::swapdims", "aten::t", "aten::tensor_split.indices",
      "aten::tensor_split.sections", "aten::to.device", "aten::to.dtype", "aten::to.dtype_layout",
      "aten::to.other", "aten::to.prim_Device", "aten::to.prim_dtype", "aten::to.prim_other",
      "aten::transpose.int", "aten::unbind.int", "aten::unflatten.int", "aten::unfold",
      "aten::unsqueeze", "aten::view", "aten::view_as"};
  std::set<std::string> lowered;
  int views = 0;
  for (const opschema::SchemaRecord& record : opschema::op_table().schemas) {
    const opschema::OpSchema schema(record);
    if (!lowering::is_view_op(schema)) continue;
    ++views;
    const lowering::ViewLoweringRule rule = lowering::view_lowering(schema);
    if (rule.kind == ViewLowering::kRefused) {
      // Refused by name: the reason names the op and its overload.
      EXPECT_NE(rule.reason.find(full_name(schema)), std::string::npos) << full_name(schema) << ": " << rule.reason;
    } else {
      lowered.insert(full_name(schema));
    }
  }
  std::set<std::string> missing, extra;
  for (const std::string& name : expected_lowered)
    if (!lowered.count(name)) missing.insert(name);
  for (const std::string& name : lowered)
    if (!expected_lowered.count(name)) extra.insert(name);
  EXPECT_TRUE(missing.empty()) << "expected lowered but not: " << ::testing::PrintToString(missing);
  EXPECT_TRUE(extra.empty()) << "lowered but not expected: " << ::testing::PrintToString(extra);
  EXPECT_GE(views, 120) << "the table's view ops";
}

// A TRAINING program with buffer `buf` of `shape` (float32, contiguous) and the `nodes`
// text, returning `out`; every value's metadata is given by `metas` ("name: 2,3").
class ViewLoweringPrograms : public ::testing::Test {
 protected:
  static std::string meta_text(const std::string& name, const std::vector<int>& sizes) {
    std::string sz, st;
    std::vector<long> strides(sizes.size(), 1);
    for (std::size_t i = sizes.size(); i-- > 1;) strides[i - 1] = strides[i] * sizes[i];
    for (std::size_t i = 0; i < sizes.size(); ++i) {
      sz += " sizes { as_int: " + std::to_string(sizes[i]) + " }";
      st += " strides { as_int: " + std::to_string(strides[i]) + " }";
    }
    return "tensor_values { key: \"" + name + "\" value { dtype: 7" + sz + st +
           " storage_offset { as_int: 0 } device { type: \"cpu\" } } }\n";
  }

  ir::Program make(const std::vector<int>& shape, const std::string& nodes,
                   const std::vector<std::pair<std::string, std::vector<int>>>& metas, const std::string& out) {
    std::string text = "name: \"model\" program { verifiers: \"TRAINING\" schema_version { major: 8 minor: 17 }\n"
                       "graph_module { graph { inputs { as_tensor { name: \"b_buf\" } }\n" +
                       nodes + " outputs { as_tensor { name: \"" + out + "\" } }\n" + meta_text("b_buf", shape);
    for (const auto& [name, sizes] : metas) text += meta_text(name, sizes);
    text += "} signature { input_specs { buffer { arg { name: \"b_buf\" } buffer_name: \"buf\" persistent: true } }\n"
            " output_specs { user_output { arg { as_tensor { name: \"" + out + "\" } } } } }\n"
            " module_call_graph { fqn: \"\" signature { out_spec: \"[1, {\\\"type\\\": null, \\\"context\\\": null, \\\"children_spec\\\": []}]\" } } } }";
    ir::Program program;
    EXPECT_TRUE(google::protobuf::TextFormat::ParseFromString(text, &program)) << text;
    return program;
  }

  static std::string node(const std::string& target, const std::string& name, const std::string& inputs,
                          const std::string& outputs = "") {
    return "nodes { target: \"torch.ops.aten." + target + "\" name: \"" + name + "\" " + inputs + " " +
           (outputs.empty() ? "outputs { as_tensor { name: \"" + name + "\" } }" : outputs) + " }\n";
  }
  static std::string tensor(const std::string& arg, const std::string& value) {
    return "inputs { name: \"" + arg + "\" arg { as_tensor { name: \"" + value + "\" } } } ";
  }
  static std::string integer(const std::string& arg, long value) {
    return "inputs { name: \"" + arg + "\" arg { as_int: " + std::to_string(value) + " } } ";
  }
  static std::string ints(const std::string& arg, const std::vector<long>& values) {
    std::string items;
    for (long v : values) items += " items: " + std::to_string(v);
    return "inputs { name: \"" + arg + "\" arg { as_ints {" + items + " } } } ";
  }
  static std::string add_one(const std::string& name, const std::string& self) {
    return node("add_.Tensor", name, tensor("self", self) + integer("other", 1));
  }

  // Lowers, then checks the result: no error finding, no mutating op, one write-back of buf.
  std::vector<std::string> lower_clean(ir::Program& program) {
    const auto result = lowering::functionalize(program);
    EXPECT_TRUE(result.ok()) << result.message();
    if (!result.ok()) return {};
    RuleRegistry registry;
    register_all_rules(registry);
    Engine engine(registry, RuleFilter{});
    CollectingSink sink;
    engine.check_program(program, sink);
    for (const Finding& f : sink.findings())
      EXPECT_NE(f.severity, Severity::kError) << f.rule_id << ": " << f.message;
    const auto& specs = program.program().graph_module().signature().output_specs();
    EXPECT_TRUE(specs.size() >= 1 && specs[0].has_buffer_mutation() && specs[0].buffer_mutation().buffer_name() == "buf");
    std::vector<std::string> targets;
    for (const ir::Node& n : program.program().graph_module().graph().nodes()) {
      targets.push_back(n.target().substr(std::string("torch.ops.aten.").size()));
      auto name = opschema::parse_serialized_target(n.target());
      auto schema = name ? opschema::find_schema(*name) : std::nullopt;
      EXPECT_FALSE(schema && schema->is_mutable()) << n.target();
    }
    return targets;
  }

  std::string refusal(ir::Program program) {
    const auto result = lowering::functionalize(program);
    EXPECT_FALSE(result.ok());
    return result.message();
  }
};

using Targets = std::vector<std::string>;

TEST_F(ViewLoweringPrograms, NarrowBecomesSliceScatter) {
  auto program = make({6}, node("narrow.default", "narrow", tensor("self", "b_buf") + integer("dim", 0) +
                                                                  integer("start", 2) + integer("length", 3)) +
                               add_one("add_", "narrow"),
                       {{"narrow", {3}}, {"add_", {3}}}, "add_");
  EXPECT_EQ(lower_clean(program), (Targets{"narrow.default", "add.Tensor", "slice_scatter.default"}));
}

TEST_F(ViewLoweringPrograms, SplitChunkAndUnbindElementsScatterBack) {
  const std::string split_out = "outputs { as_tensors { items { name: \"s0\" } items { name: \"s1\" } } }";
  auto split = make({5, 2}, node("split.Tensor", "split", tensor("self", "b_buf") + integer("split_size", 3) + integer("dim", 0),
                                 split_out) + add_one("add_", "s1"),
                    {{"s0", {3, 2}}, {"s1", {2, 2}}, {"add_", {2, 2}}}, "add_");
  Targets targets = lower_clean(split);
  EXPECT_EQ(targets, (Targets{"split.Tensor", "add.Tensor", "slice_scatter.default"}));

  auto chunk = make({4}, node("chunk.default", "chunk", tensor("self", "b_buf") + integer("chunks", 2), split_out) +
                             add_one("add_", "s1") + node("mul.Tensor", "mul", tensor("self", "s0") + integer("other", 2)),
                    {{"s0", {2}}, {"s1", {2}}, {"add_", {2}}, {"mul", {2}}}, "mul");
  // s0 was taken before the write and read after it: regenerated as the slice it is.
  EXPECT_EQ(lower_clean(chunk), (Targets{"chunk.default", "add.Tensor", "slice_scatter.default", "slice.Tensor", "mul.Tensor"}));

  auto unbind = make({2, 3}, node("unbind.int", "unbind", tensor("self", "b_buf") + integer("dim", 0), split_out) +
                                 add_one("add_", "s1"),
                     {{"s0", {3}}, {"s1", {3}}, {"add_", {3}}}, "add_");
  EXPECT_EQ(lower_clean(unbind), (Targets{"unbind.int", "add.Tensor", "select_scatter.default"}));
}

TEST_F(ViewLoweringPrograms, SliceScatterBoundsOfASplitElementAreItsOffsets) {
  const std::string split_out = "outputs { as_tensors { items { name: \"s0\" } items { name: \"s1\" } items { name: \"s2\" } } }";
  auto program = make({7}, node("split_with_sizes.default", "split", tensor("self", "b_buf") + ints("split_sizes", {2, 4, 1}),
                                split_out) + add_one("add_", "s1"),
                      {{"s0", {2}}, {"s1", {4}}, {"s2", {1}}, {"add_", {4}}}, "add_");
  ASSERT_TRUE(lowering::functionalize(program).ok());
  for (const ir::Node& n : program.program().graph_module().graph().nodes()) {
    if (n.target() != "torch.ops.aten.slice_scatter.default") continue;
    EXPECT_EQ(n.inputs(3).arg().as_int(), 2);  // start
    EXPECT_EQ(n.inputs(4).arg().as_int(), 6);  // end
  }
}

TEST_F(ViewLoweringPrograms, UnfoldWithTilingWindowsIsFoldedBack) {
  auto program = make({2, 7}, node("unfold.default", "unfold", tensor("self", "b_buf") + integer("dimension", 1) +
                                                                   integer("size", 3) + integer("step", 3)) +
                                  add_one("add_", "unfold"),
                      {{"unfold", {2, 2, 3}}, {"add_", {2, 2, 3}}}, "add_");
  EXPECT_EQ(lower_clean(program),
            (Targets{"unfold.default", "add.Tensor", "movedim.int", "view.default", "slice_scatter.default"}));
}

TEST_F(ViewLoweringPrograms, UnfoldWithOverlappingWindowsIsRefusedByName) {
  auto program = make({6}, node("unfold.default", "unfold", tensor("self", "b_buf") + integer("dimension", 0) +
                                                                integer("size", 3) + integer("step", 1)) +
                               add_one("add_", "unfold"),
                      {{"unfold", {4, 3}}, {"add_", {4, 3}}}, "add_");
  const std::string error = refusal(program);
  EXPECT_NE(error.find("unfold"), std::string::npos) << error;
  EXPECT_NE(error.find("overlap"), std::string::npos) << error;
}

TEST_F(ViewLoweringPrograms, ExpandThatBroadcastsNothingIsAViewAndOneThatDoesIsRefused) {
  auto same = make({1, 4}, node("expand.default", "expand", tensor("self", "b_buf") + ints("size", {1, 4})) +
                               add_one("add_", "expand"),
                   {{"expand", {1, 4}}, {"add_", {1, 4}}}, "add_");
  EXPECT_EQ(lower_clean(same), (Targets{"expand.default", "add.Tensor", "view.default"}));
  auto wide = make({1, 4}, node("expand.default", "expand", tensor("self", "b_buf") + ints("size", {3, 4})) +
                               add_one("add_", "expand"),
                   {{"expand", {3, 4}}, {"add_", {3, 4}}}, "add_");
  const std::string error = refusal(wide);
  EXPECT_NE(error.find("expand"), std::string::npos) << error;
  EXPECT_NE(error.find("broadcasts"), std::string::npos) << error;
}

TEST_F(ViewLoweringPrograms, MovedimIsInvertedByTheOppositeMove) {
  auto program = make({2, 3, 4}, node("movedim.int", "movedim", tensor("self", "b_buf") + integer("source", 0) +
                                                                    integer("destination", 2)) +
                                     add_one("add_", "movedim"),
                      {{"movedim", {3, 4, 2}}, {"add_", {3, 4, 2}}}, "add_");
  EXPECT_EQ(lower_clean(program), (Targets{"movedim.int", "add.Tensor", "movedim.int"}));
  const ir::Node& inverse = program.program().graph_module().graph().nodes(2);
  EXPECT_EQ(inverse.inputs(1).arg().as_int(), 2);  // source: where the dim went
  EXPECT_EQ(inverse.inputs(2).arg().as_int(), 0);  // destination: where it came from
}

TEST_F(ViewLoweringPrograms, ARefusedViewNamesTheOp) {
  auto program = make({4}, node("view_as_real.default", "real", tensor("self", "b_buf")) + add_one("add_", "real"),
                      {{"real", {4, 2}}, {"add_", {4, 2}}}, "add_");
  const std::string error = refusal(program);
  EXPECT_NE(error.find("aten::view_as_real"), std::string::npos) << error;
}

}  // namespace
}  // namespace pt2lint
