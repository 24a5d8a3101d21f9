// Decoding auto_functionalized (v1, needs the op's schema) and auto_functionalized_v2 (needs
// none): which output is the new value of which base, list arguments, view replays.
#include <google/protobuf/text_format.h>
#include <gtest/gtest.h>

#include "analysis/dataflow/auto_functionalized.h"
#include "analysis/opschema/schema_catalog.h"

namespace pt2lint::dataflow {
namespace {

ir::Node node(const std::string& text) {
  ir::Node n;
  if (!google::protobuf::TextFormat::ParseFromString(text, &n)) throw std::runtime_error("bad textproto");
  return n;
}

TEST(AutoFunctionalized, V2MapsOutputsAfterTheReturnsToBasesWithoutASchema) {
  // A list argument (two elements on two bases), a slice view and a returned tensor.
  ir::Node n = node(R"(
    target: "torch.ops.higher_order.auto_functionalized_v2"
    inputs { name: "" arg { as_operator: "torch.ops.mylib.f.default" } kind: 1 }
    inputs { name: "y" arg { as_tensor { name: "y" } } kind: 2 }
    inputs { name: "_xs_length" arg { as_int: 2 } kind: 2 }
    inputs { name: "_xs_0_base_index" arg { as_int: 0 } kind: 2 }
    inputs { name: "_xs_1_base_index" arg { as_int: 1 } kind: 2 }
    inputs { name: "_c_base_index" arg { as_int: 1 } kind: 2 }
    inputs { name: "_c_slice_dim" arg { as_int: 0 } kind: 2 }
    inputs { name: "_c_slice_start" arg { as_int: 1 } kind: 2 }
    inputs { name: "_c_slice_end" arg { as_int: 3 } kind: 2 }
    inputs { name: "_all_bases" arg { as_tensors { items { name: "b_a" } items { name: "b_b" } } } kind: 2 }
    outputs { as_tensor { name: "ret" } }
    outputs { as_tensor { name: "getitem_1" } }
    outputs { as_tensor { name: "getitem_2" } })");
  auto call = decode_auto_functionalized(n, nullptr);
  ASSERT_TRUE(call.ok()) << call.message();
  EXPECT_EQ(call->version, AutoFunctionalizedVersion::kV2);
  EXPECT_EQ(call->op_target, "torch.ops.mylib.f.default");
  EXPECT_EQ(call->prefix, 1);
  ASSERT_EQ(call->updates.size(), 2u);
  EXPECT_EQ(call->updates[0].updated, "getitem_1");
  EXPECT_EQ(call->updates[0].base, "b_a");
  EXPECT_EQ(call->updates[1].updated, "getitem_2");
  EXPECT_EQ(call->updates[1].base, "b_b");
  EXPECT_EQ(call->updates[1].argument, "xs_1, c");
  ASSERT_EQ(call->written.size(), 3u);
  EXPECT_EQ(call->written[0].argument, "xs");
  EXPECT_EQ(call->written[0].element, 0);
  EXPECT_EQ(call->written[2].view, "slice");
  EXPECT_EQ(written_argument_names(*call), (std::vector<std::string>{"xs", "c"}));
}

TEST(AutoFunctionalized, V1NeedsTheSchemaAndMapsWrittenArgumentsInSchemaOrder) {
  ir::Node n = node(R"(
    target: "torch.ops.higher_order.auto_functionalized"
    inputs { name: "" arg { as_operator: "torch.ops.mylib.upd.default" } kind: 1 }
    inputs { name: "k" arg { as_tensor { name: "b_k" } } kind: 2 }
    inputs { name: "v" arg { as_tensor { name: "b_v" } } kind: 2 }
    inputs { name: "x" arg { as_tensor { name: "x" } } kind: 2 }
    outputs { as_none: true }
    outputs { as_tensor { name: "new_k" } }
    outputs { as_tensor { name: "new_v" } })");
  const auto unknown = decode_auto_functionalized(n, nullptr);
  EXPECT_FALSE(unknown.ok());
  EXPECT_NE(unknown.message().find("no known schema"), std::string::npos);

  opschema::SchemaCatalog schemas;
  ASSERT_TRUE(schemas.add_text("mylib::upd(Tensor(a!) k, Tensor(b!) v, Tensor x) -> ()", "t").empty());
  auto call = decode_auto_functionalized(n, &schemas);
  ASSERT_TRUE(call.ok()) << call.message();
  ASSERT_EQ(call->updates.size(), 2u);
  EXPECT_EQ(call->updates[0].updated, "new_k");
  EXPECT_EQ(call->updates[0].base, "b_k");
  EXPECT_EQ(call->updates[1].base, "b_v");
  EXPECT_EQ(written_argument_names(*call), (std::vector<std::string>{"k", "v"}));
}

TEST(AutoFunctionalized, MalformedEncodingsAreNotDecoded) {
  // More bases than outputs.
  EXPECT_FALSE(decode_auto_functionalized(node(R"(
    target: "torch.ops.higher_order.auto_functionalized_v2"
    inputs { name: "" arg { as_operator: "torch.ops.mylib.f.default" } }
    inputs { name: "_all_bases" arg { as_tensors { items { name: "a" } items { name: "b" } } } }
    outputs { as_tensor { name: "o" } })"), nullptr).ok());
  // A base index past `_all_bases`.
  EXPECT_FALSE(decode_auto_functionalized(node(R"(
    target: "torch.ops.higher_order.auto_functionalized_v2"
    inputs { name: "" arg { as_operator: "torch.ops.mylib.f.default" } }
    inputs { name: "_x_base_index" arg { as_int: 5 } }
    inputs { name: "_all_bases" arg { as_tensors { items { name: "a" } } } }
    outputs { as_none: true }
    outputs { as_tensor { name: "o" } })"), nullptr).ok());
  // No `_mutable_op`, and another op altogether.
  EXPECT_FALSE(decode_auto_functionalized(node(R"(
    target: "torch.ops.higher_order.auto_functionalized_v2"
    inputs { name: "_all_bases" arg { as_tensors { } } })"), nullptr).ok());
  EXPECT_FALSE(decode_auto_functionalized(node(R"(target: "torch.ops.aten.add.Tensor")"), nullptr).ok());
}

}  // namespace
}  // namespace pt2lint::dataflow
