// The IR facts every layer shares (src/core/ir): tensor-metadata comparisons, whose SymInt
// equality the shape rule (PT302) and the reference lowering both rely on, and the FX node
// name.
#include <google/protobuf/text_format.h>
#include <gtest/gtest.h>

#include <string>

#include "core/ir/ir_accessors.h"
#include "core/ir/tensor_meta_predicates.h"

namespace pt2lint {
namespace {

template <typename Message>
Message parse(const std::string& text) {
  Message m;
  EXPECT_TRUE(google::protobuf::TextFormat::ParseFromString(text, &m)) << text;
  return m;
}

ir::SymInt sym(const std::string& text) { return parse<ir::SymInt>(text); }
ir::TensorMeta meta(const std::string& text) { return parse<ir::TensorMeta>(text); }

TEST(SameSymInt, ConcreteSizesCompareByValue) {
  EXPECT_TRUE(same_sym_int(sym("as_int: 4"), sym("as_int: 4")));
  EXPECT_FALSE(same_sym_int(sym("as_int: 4"), sym("as_int: 5")));
  EXPECT_TRUE(same_sym_int(sym("as_int: 0"), sym("as_int: 0")));
}

TEST(SameSymInt, SymbolicSizesCompareByExpressionNotHint) {
  EXPECT_TRUE(same_sym_int(sym("as_expr { expr_str: 's0' hint { as_int: 8 } }"),
                           sym("as_expr { expr_str: 's0' hint { as_int: 16 } }")));
  EXPECT_TRUE(same_sym_int(sym("as_expr { expr_str: 's0 + 1' }"),
                           sym("as_expr { expr_str: 's0 + 1' hint { as_int: 9 } }")));
  EXPECT_FALSE(same_sym_int(sym("as_expr { expr_str: 's0' }"), sym("as_expr { expr_str: 's1' }")));
}

TEST(SameSymInt, SymbolicNeverEqualsConcreteAndUnknownEqualsNothing) {
  EXPECT_FALSE(same_sym_int(sym("as_expr { expr_str: '4' hint { as_int: 4 } }"), sym("as_int: 4")));
  EXPECT_FALSE(same_sym_int(sym(""), sym("")));
  EXPECT_FALSE(same_sym_int(sym(""), sym("as_int: 0")));
}

TEST(SameSizes, PositionByPosition) {
  const auto a = meta("dtype: 7 sizes { as_int: 2 } sizes { as_expr { expr_str: 's0' } }");
  EXPECT_TRUE(same_sizes(a, meta("dtype: 6 sizes { as_int: 2 } sizes { as_expr { expr_str: 's0' hint { as_int: 3 } } }")));
  EXPECT_FALSE(same_sizes(a, meta("dtype: 7 sizes { as_int: 2 } sizes { as_int: 3 }")));
  EXPECT_FALSE(same_sizes(a, meta("dtype: 7 sizes { as_int: 2 }")));
  EXPECT_TRUE(same_strides(meta("dtype: 7 strides { as_int: 1 }"), meta("dtype: 7 strides { as_int: 1 }")));
  EXPECT_FALSE(same_strides(meta("dtype: 7 strides { as_int: 1 }"), meta("dtype: 7 strides { as_int: 2 }")));
}

TEST(Devices, ExactAndCompatible) {
  const auto cuda = parse<ir::Device>("type: 'cuda'");
  const auto cuda0 = parse<ir::Device>("type: 'cuda' index: 0");
  const auto cuda1 = parse<ir::Device>("type: 'cuda' index: 1");
  EXPECT_TRUE(same_device(cuda0, cuda0));
  EXPECT_FALSE(same_device(cuda, cuda0));
  EXPECT_TRUE(compatible_devices(cuda, cuda0));
  EXPECT_FALSE(compatible_devices(cuda0, cuda1));
  EXPECT_FALSE(compatible_devices(cuda, parse<ir::Device>("type: 'cpu'")));
}

TEST(Contiguity, JudgedOnlyOnConcreteSizesAndStrides) {
  EXPECT_EQ(contiguity(meta("dtype: 7 sizes { as_int: 2 } sizes { as_int: 3 } strides { as_int: 3 } strides { as_int: 1 }")),
            Contiguity::kContiguous);
  EXPECT_EQ(contiguity(meta("dtype: 7 sizes { as_int: 2 } sizes { as_int: 3 } strides { as_int: 1 } strides { as_int: 2 }")),
            Contiguity::kNonContiguous);
  EXPECT_EQ(contiguity(meta("dtype: 7 sizes { as_int: 1 } sizes { as_int: 3 } strides { as_int: 7 } strides { as_int: 1 }")),
            Contiguity::kContiguous);
  EXPECT_EQ(contiguity(meta("dtype: 7 sizes { as_expr { expr_str: 's0' } } sizes { as_int: 3 } strides { as_int: 3 } strides { as_int: 1 }")),
            Contiguity::kUnknown);
  EXPECT_EQ(contiguity(meta("dtype: 7 sizes { as_int: 3 }")), Contiguity::kUnknown);
}

TEST(FxNodeName, NameElseFirstOutputValue) {
  EXPECT_EQ(fx_node_name(parse<ir::Node>("name: 'add' outputs { as_tensor { name: 'x' } }")), "add");
  EXPECT_EQ(fx_node_name(parse<ir::Node>("outputs { as_sym_int { as_name: 's0' } } outputs { as_tensor { name: 'x' } }")), "s0");
  EXPECT_EQ(fx_node_name(parse<ir::Node>("outputs { as_tensors { items { name: 'a' } items { name: 'b' } } }")), "a");
  EXPECT_EQ(fx_node_name(parse<ir::Node>("outputs { as_none: true }")), "");
}

}  // namespace
}  // namespace pt2lint
