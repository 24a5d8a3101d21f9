// Update-base tracing on small hand-written programs (docs/dataflow.md).
#include <google/protobuf/text_format.h>
#include <gtest/gtest.h>

#include "analysis/dataflow/effective_mutations.h"
#include "analysis/dataflow/program_dataflow.h"
#include "analysis/program_index.h"

namespace pt2lint {
namespace {

ir::Program parse_program(const std::string& text) {
  ir::Program program;
  if (!google::protobuf::TextFormat::ParseFromString(text, &program)) throw std::runtime_error("bad textproto");
  return program;
}

// buffer b (4,) and user input x (4,); `body` adds nodes, `outputs` the graph outputs.
std::string program_text(const std::string& dialect, const std::string& body) {
  return R"(name: "model"
program {
  verifiers: ")" + dialect + R"("
  schema_version { major: 8 minor: 17 }
  graph_module {
    graph {
      inputs { as_tensor { name: "b_buf" } }
      inputs { as_tensor { name: "b_other" } }
      inputs { as_tensor { name: "x" } }
      )" + body + R"(
      tensor_values { key: "b_buf" value { dtype: 7 sizes { as_int: 4 } device { type: "cpu" } } }
      tensor_values { key: "b_other" value { dtype: 7 sizes { as_int: 4 } device { type: "cpu" } } }
      tensor_values { key: "x" value { dtype: 7 sizes { as_int: 4 } device { type: "cpu" } } }
    }
    signature {
      input_specs { buffer { arg { name: "b_buf" } buffer_name: "buf" persistent: true } }
      input_specs { buffer { arg { name: "b_other" } buffer_name: "other" persistent: true } }
      input_specs { user_input { arg { as_tensor { name: "x" } } } }
    }
  }
})";
}

struct Traced {
  ir::Program program;
  ProgramIndex index;
  dataflow::ProgramDataflow flow;
  explicit Traced(const std::string& text) : program(parse_program(text)), index(program), flow(index) {}
  std::string_view origin(std::string_view value) {
    const dataflow::Trace& t = flow.tracer().update_origin(value);
    return t.placeholder < 0 || !t.updated ? "" : index.placeholder_names()[t.placeholder];
  }
};

TEST(UpdateOrigin, FollowsASliceWriteBackThroughSliceScatter) {
  // buf[1:].add_(1) after run_decompositions: slice, add (from add_), slice_scatter.
  Traced t(program_text("ATEN", R"(
      nodes { target: "torch.ops.aten.slice.Tensor" name: "slice"
              inputs { name: "self" arg { as_tensor { name: "b_buf" } } }
              inputs { name: "dim" arg { as_int: 0 } } inputs { name: "start" arg { as_int: 1 } }
              outputs { as_tensor { name: "slice" } } }
      nodes { target: "torch.ops.aten.add.Tensor" name: "add"
              inputs { name: "self" arg { as_tensor { name: "slice" } } }
              inputs { name: "other" arg { as_int: 1 } }
              outputs { as_tensor { name: "add" } }
              metadata { key: "torch_fn" value: "add__1;method_descriptor.add_" } }
      nodes { target: "torch.ops.aten.slice_scatter.default" name: "slice_scatter"
              inputs { name: "self" arg { as_tensor { name: "b_buf" } } }
              inputs { name: "src" arg { as_tensor { name: "add" } } }
              outputs { as_tensor { name: "slice_scatter" } }
              metadata { key: "from_node" value: "[{\"name\": \"add_\", \"target\": \"aten.add_.Tensor\"}]" } })"));
  EXPECT_EQ(t.origin("slice_scatter"), "b_buf");
  EXPECT_EQ(t.origin("add"), "b_buf");
  EXPECT_EQ(t.origin("slice"), "");  // a view, not an update
  EXPECT_EQ(t.flow.tracer().alias_root("slice").placeholder, 0);
}

TEST(UpdateOrigin, NeedsInPlaceProvenanceForFunctionalOps) {
  // An out-of-place masked_fill / add of a buffer is an ordinary computation.
  Traced t(program_text("ATEN", R"(
      nodes { target: "torch.ops.aten.add.Tensor" name: "add"
              inputs { name: "self" arg { as_tensor { name: "b_buf" } } }
              inputs { name: "other" arg { as_tensor { name: "x" } } }
              outputs { as_tensor { name: "add" } }
              metadata { key: "torch_fn" value: "add_1;method_descriptor.add" } }
      nodes { target: "torch.ops.aten.masked_fill.Scalar" name: "masked_fill"
              inputs { name: "self" arg { as_tensor { name: "b_other" } } }
              inputs { name: "mask" arg { as_tensor { name: "x" } } }
              inputs { name: "value" arg { as_float: 0 } }
              outputs { as_tensor { name: "masked_fill" } } })"));
  EXPECT_EQ(t.origin("add"), "");
  EXPECT_EQ(t.origin("masked_fill"), "");
}

TEST(EffectiveMutations, CountsWritesThroughViewsAndAliasingTo) {
  Traced t(program_text("TRAINING", R"(
      nodes { target: "torch.ops.aten.slice.Tensor" name: "slice"
              inputs { name: "self" arg { as_tensor { name: "b_buf" } } }
              inputs { name: "dim" arg { as_int: 0 } } inputs { name: "start" arg { as_int: 1 } }
              outputs { as_tensor { name: "slice" } } }
      nodes { target: "torch.ops.aten.add_.Tensor" name: "add_"
              inputs { name: "self" arg { as_tensor { name: "slice" } } }
              inputs { name: "other" arg { as_int: 1 } }
              outputs { as_tensor { name: "add_" } } }
      nodes { target: "torch.ops.aten.to.dtype" name: "to"
              inputs { name: "self" arg { as_tensor { name: "b_other" } } }
              inputs { name: "dtype" arg { as_scalar_type: 7 } }
              outputs { as_tensor { name: "to" } } }
      nodes { target: "torch.ops.aten.mul_.Tensor" name: "mul_"
              inputs { name: "self" arg { as_tensor { name: "to" } } }
              inputs { name: "other" arg { as_tensor { name: "x" } } }
              outputs { as_tensor { name: "mul_" } } }
      nodes { target: "torch.ops.my_ns.opaque.default" name: "opaque"
              inputs { name: "self" arg { as_tensor { name: "x" } } }
              outputs { as_tensor { name: "opaque" } } }
      tensor_values { key: "slice" value { dtype: 7 sizes { as_int: 3 } device { type: "cpu" } } }
      tensor_values { key: "to" value { dtype: 7 sizes { as_int: 4 } device { type: "cpu" } } })"));
  auto writes = dataflow::effective_mutations(t.index, t.flow.ops(), t.flow.tracer());
  ASSERT_EQ(writes.size(), 2u);
  EXPECT_EQ(writes[0].target, "buf");
  EXPECT_EQ(writes[0].view_writes.size(), 1u);
  EXPECT_EQ(writes[1].target, "other");
  EXPECT_EQ(t.flow.ops().unknown_targets(), std::vector<std::string_view>{"torch.ops.my_ns.opaque.default"});
}

}  // namespace
}  // namespace pt2lint
