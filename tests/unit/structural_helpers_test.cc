// The logic under the structural rules that is easy to get subtly wrong: treespec leaf
// counting, "did you mean" heuristics for state names, and record size arithmetic.
#include <google/protobuf/text_format.h>
#include <gtest/gtest.h>

#include <string>

#include "analysis/state/name_suggestions.h"
#include "core/ir/tensor_bytes.h"
#include "core/ir/treespec.h"

namespace pt2lint {
namespace {

constexpr const char* kLeaf = R"({"type": null, "context": null, "children_spec": []})";

std::string node(const std::string& type, const std::string& context,
                 const std::string& children) {
  return "{\"type\": \"" + type + "\", \"context\": " + context + ", \"children_spec\": [" +
         children + "]}";
}

TEST(TreeSpec, BareLeafCountsOne) {
  TreeSpecShape shape = read_treespec(std::string("[1, ") + kLeaf + "]");
  ASSERT_TRUE(shape.ok) << shape.error;
  EXPECT_EQ(shape.leaves, 1u);
  EXPECT_EQ(shape.root_type, "");
}

TEST(TreeSpec, CountsLeavesOfNestedContainers) {
  std::string leaf = kLeaf;
  std::string dict = node("builtins.dict", R"("[\"a\", \"b\", \"c\"]")",
                          leaf + ", " + leaf + ", " + node("builtins.list", "\"null\"", leaf));
  std::string tuple = node("builtins.tuple", "\"null\"", leaf + ", " + dict);
  TreeSpecShape shape = read_treespec("[1, " + tuple + "]");
  ASSERT_TRUE(shape.ok) << shape.error;
  EXPECT_EQ(shape.leaves, 4u);
  EXPECT_EQ(shape.root_type, "builtins.tuple");
  EXPECT_EQ(shape.root_children, 2u);
}

TEST(TreeSpec, EmptyContainerCountsZero) {
  TreeSpecShape shape = read_treespec("[1, " + node("builtins.tuple", "\"null\"", "") + "]");
  ASSERT_TRUE(shape.ok) << shape.error;
  EXPECT_EQ(shape.leaves, 0u);
}

TEST(TreeSpec, SkipsStructuredContextsAndKeyOrder) {
  // defaultdict keeps an object context; the keys may come in any order.
  std::string spec =
      R"([1, {"children_spec": [)" + std::string(kLeaf) + ", " + kLeaf +
      R"(], "context": {"default_factory_module": "builtins", "dict_context": ["k\"1", 2.5e3, true, [null]]},
           "type": "collections.defaultdict"}])";
  TreeSpecShape shape = read_treespec(spec);
  ASSERT_TRUE(shape.ok) << shape.error;
  EXPECT_EQ(shape.leaves, 2u);
  EXPECT_EQ(shape.root_type, "collections.defaultdict");
}

TEST(TreeSpec, RejectsOtherProtocolsAndBrokenText) {
  EXPECT_FALSE(read_treespec(std::string("[2, ") + kLeaf + "]").ok);
  EXPECT_FALSE(read_treespec("").ok);
  EXPECT_FALSE(read_treespec("[1, {\"type\": null, \"children_spec\": [").ok);
  EXPECT_FALSE(read_treespec("[1, {\"context\": null, \"children_spec\": []}]").ok);
  EXPECT_FALSE(read_treespec(std::string("[1, ") + kLeaf + "] trailing").ok);
  EXPECT_NE(read_treespec("not json").error, "");
}

TEST(TreeSpec, BoundsNestingDepth) {
  std::string spec = kLeaf;
  for (int i = 0; i < 40; ++i) spec = node("builtins.tuple", "\"null\"", spec);
  const TreeSpecShape read = read_treespec("[1, " + spec + "]", 64);
  EXPECT_TRUE(read.ok);
  EXPECT_EQ(read.nesting, 40u);
  TreeSpecShape deep = read_treespec("[1, " + spec + "]", 16);
  EXPECT_FALSE(deep.ok);
  EXPECT_TRUE(deep.too_deep);
  EXPECT_NE(deep.error.find("deeper"), std::string::npos);

  std::string hostile = "[1, ";
  for (int i = 0; i < 100000; ++i) hostile += R"({"type": "t", "children_spec": [)";
  EXPECT_FALSE(read_treespec(hostile).ok);  // stops at the bound, no stack overflow
}

// The spec PyTorch 2.11 was measured to load at its deepest (984 one-element tuples, as
// tests/data/device/measurements/measure.py builds it) is read, with its nesting counted.
TEST(TreeSpec, ReadsEverySpecPyTorchLoads) {
  std::string spec = kLeaf;
  for (std::size_t i = 0; i < kTorchMaxTreeSpecNesting; ++i) {
    spec = node("builtins.tuple", "\"null\"", spec);
  }
  const TreeSpecShape shape = read_treespec("[1, " + spec + "]");
  ASSERT_TRUE(shape.ok) << shape.error;
  EXPECT_EQ(shape.nesting, kTorchMaxTreeSpecNesting);
  EXPECT_EQ(shape.leaves, 1u);
}

const std::vector<NameCandidate> kBuffers = {
    {"layers.0.self_attn.kv_cache.k_cache", "b_layers_0_self_attn_kv_cache_k_cache"},
    {"layers.0.self_attn.kv_cache.v_cache", "b_layers_0_self_attn_kv_cache_v_cache"},
    {"count", "b_count"},
};

TEST(NameSuggestions, PlaceholderNameUsedForTheFqn) {
  auto miss = find_near_miss("b_count", kBuffers);
  ASSERT_TRUE(miss);
  EXPECT_EQ(miss->name, "count");
  EXPECT_EQ(miss->kind, NearMissKind::kPlaceholderName);
}

TEST(NameSuggestions, LiftedPrefixAndUnderscores) {
  auto miss = find_near_miss("lifted_buf_layers_0_self_attn_kv_cache_k_cache", kBuffers);
  ASSERT_TRUE(miss);
  EXPECT_EQ(miss->name, "layers.0.self_attn.kv_cache.k_cache");
  EXPECT_EQ(miss->kind, NearMissKind::kRespelled);
  EXPECT_NE(miss->explanation.find("lifted_buf_"), std::string::npos);
}

TEST(NameSuggestions, DotsForUnderscores) {
  auto miss = find_near_miss("layers_0_self_attn_kv_cache_v_cache", kBuffers);
  ASSERT_TRUE(miss);
  EXPECT_EQ(miss->name, "layers.0.self_attn.kv_cache.v_cache");
  EXPECT_EQ(miss->kind, NearMissKind::kRespelled);
}

TEST(NameSuggestions, AmbiguousRespellingFallsBackToEditDistance) {
  // `a.b_c` and `a_b.c` sanitise alike; neither is singled out as a respelling.
  std::vector<NameCandidate> both = {{"a.b_c", "b_a_b_c"}, {"a_b.c", "b_a_b_c_1"}};
  auto miss = find_near_miss("a_b_c", both);
  ASSERT_TRUE(miss);
  EXPECT_EQ(miss->kind, NearMissKind::kTypo);
}

TEST(NameSuggestions, PlainTypoAndNoMatch) {
  auto miss = find_near_miss("cuont", kBuffers);
  ASSERT_TRUE(miss);
  EXPECT_EQ(miss->name, "count");
  EXPECT_EQ(miss->kind, NearMissKind::kTypo);
  EXPECT_FALSE(find_near_miss("no.such.buffer", kBuffers));
  EXPECT_FALSE(find_near_miss("", kBuffers));
}

TEST(NameSuggestions, SanitizeMatchesPlaceholderNamingPass) {
  EXPECT_EQ(sanitize_state_name("bn1.running_mean"), "bn1_running_mean");
  EXPECT_EQ(sanitize_state_name("Layer.W"), "layer_w");
}

ir::TensorMeta meta(const std::string& text) {
  ir::TensorMeta m;
  EXPECT_TRUE(google::protobuf::TextFormat::ParseFromString(text, &m)) << text;
  return m;
}

TEST(TensorBytes, ElementSizesFollowSchemaCodes) {
  EXPECT_EQ(scalar_type_size(7), 4u);    // FLOAT
  EXPECT_EQ(scalar_type_size(5), 8u);    // LONG
  EXPECT_EQ(scalar_type_size(13), 2u);   // BFLOAT16
  EXPECT_EQ(scalar_type_size(11), 16u);  // COMPLEXDOUBLE
  EXPECT_EQ(scalar_type_size(29), 1u);   // FLOAT8E4M3FN
  EXPECT_FALSE(scalar_type_size(0));
  EXPECT_FALSE(scalar_type_size(14));
}

TEST(TensorBytes, ContiguousScalarAndEmpty) {
  EXPECT_EQ(required_storage_bytes(meta(R"(dtype: 7 sizes {as_int: 4} sizes {as_int: 4}
      strides {as_int: 4} strides {as_int: 1} storage_offset {as_int: 0})")),
            64u);
  EXPECT_EQ(required_storage_bytes(meta("dtype: 5 storage_offset {as_int: 0}")), 8u);
  EXPECT_EQ(required_storage_bytes(meta("dtype: 7 sizes {as_int: 3} sizes {as_int: 0}")), 0u);
  // Strides left out mean contiguous.
  EXPECT_EQ(required_storage_bytes(meta("dtype: 6 sizes {as_int: 2} sizes {as_int: 3}")), 12u);
}

TEST(TensorBytes, ViewsReachOffsetPlusLastElement) {
  // A transposed [3, 2] view of a 2x3 float storage starting at element 1.
  EXPECT_EQ(required_storage_bytes(meta(R"(dtype: 7 sizes {as_int: 3} sizes {as_int: 2}
      strides {as_int: 1} strides {as_int: 3} storage_offset {as_int: 1})")),
            (1 + 2 * 1 + 1 * 3 + 1) * 4u);
  // Broadcast (stride 0) needs one element per broadcast row.
  EXPECT_EQ(required_storage_bytes(meta(R"(dtype: 7 sizes {as_int: 5} sizes {as_int: 4}
      strides {as_int: 0} strides {as_int: 1})")),
            16u);
}

TEST(TensorBytes, UnknowableCases) {
  EXPECT_FALSE(required_storage_bytes(meta(R"(dtype: 7 sizes {as_expr {expr_str: "s0"}})")));
  EXPECT_FALSE(required_storage_bytes(meta("dtype: 0 sizes {as_int: 2}")));
  EXPECT_FALSE(required_storage_bytes(meta(R"(dtype: 7 sizes {as_int: 4611686018427387904}
      sizes {as_int: 4611686018427387904})")));
}

TEST(TensorBytes, RecordFit) {
  ir::TensorMeta m = meta(R"(dtype: 7 sizes {as_int: 4} sizes {as_int: 4}
      strides {as_int: 4} strides {as_int: 1} storage_offset {as_int: 0})");
  EXPECT_TRUE(check_record_fits(64, m).fits);
  EXPECT_TRUE(check_record_fits(128, m).fits);  // shared storage may be larger
  EXPECT_TRUE(check_record_fits(0, m).fits);    // a fake/empty tensor
  RecordFit short_record = check_record_fits(60, m);
  EXPECT_FALSE(short_record.fits);
  EXPECT_NE(short_record.problem.find("needs 64"), std::string::npos) << short_record.problem;
  RecordFit ragged = check_record_fits(66, m);
  EXPECT_FALSE(ragged.fits);
  EXPECT_NE(ragged.problem.find("multiple"), std::string::npos) << ragged.problem;
}

}  // namespace
}  // namespace pt2lint
