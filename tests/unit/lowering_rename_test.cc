// `lower --rename-nested`: a full renaming keeps the program clean and its contract intact;
// a partial one (inputs renamed, mutation targets not) is caught by `check` and by `diff`.
#include <gtest/gtest.h>

#include <algorithm>

#include "../data/lowering/lowering_test_support.h"
#include "contract/contract_diff.h"
#include "contract/recorded_renames.h"
#include "core/rule_registry.h"
#include "engine/engine.h"
#include "lowering/functionalize.h"
#include "lowering/rename_nested.h"
#include "rules/register_all_rules.h"

namespace pt2lint {
namespace {

using namespace lowering_testing;

std::vector<Finding> check(const ir::Program& program) {
  RuleRegistry registry;
  register_all_rules(registry);
  Engine engine(registry, RuleFilter{});
  CollectingSink sink;
  engine.check_program(program, sink);
  return sink.take();
}

std::vector<Finding> diff(const ir::Program& before, const ir::Program& after, const RenameMap& renames) {
  CollectingSink sink;
  diff_contracts(derive_contract(before), derive_contract(after), renames, sink);
  return sink.take();
}

std::string rules_of(const std::vector<Finding>& findings) {
  std::string out;
  for (const Finding& f : findings) out += f.rule_name + ": " + f.message + "\n";
  return out;
}

class RenameNested : public ::testing::Test {
 protected:
  void SetUp() override {
    if (!have_corpus()) GTEST_SKIP() << "corpus not found at " << corpus();
    original_ = load_clean(corpus() / "base" / "kv_nested_2l.pt2").at(0);
    lowered_ = original_;
    ASSERT_TRUE(lowering::functionalize(lowered_).ok());
    renames_ = lowering::plan_nested_buffer_renames(lowered_);
  }
  ir::Program original_, lowered_;
  lowering::Renames renames_;
};

TEST_F(RenameNested, NamesFollowTheLiftedBufferConvention) {
  ASSERT_EQ(renames_.size(), 4u);
  EXPECT_EQ(renames_[0].first, "layers.0.self_attn.kv_cache.k_cache");
  EXPECT_EQ(renames_[0].second, "lifted_buf_layers_0_self_attn_kv_cache_k_cache");
}

TEST_F(RenameNested, AClashGetsANumericSuffix) {
  auto* spec = lowered_.mutable_program()->mutable_graph_module()->mutable_signature()->mutable_input_specs(0);
  spec->mutable_parameter()->set_parameter_name("lifted_buf_layers_0_self_attn_kv_cache_k_cache");
  const lowering::Renames renames = lowering::plan_nested_buffer_renames(lowered_);
  EXPECT_EQ(renames[0].second, "lifted_buf_layers_0_self_attn_kv_cache_k_cache_1");
}

TEST_F(RenameNested, AFullRenamingIsCleanAndKeepsTheContract) {
  lowering::apply_renames(lowered_, renames_);
  lowering::record_renames(lowered_, renames_);
  const auto findings = check(lowered_);
  EXPECT_TRUE(std::none_of(findings.begin(), findings.end(),
                           [](const Finding& f) { return f.severity == Severity::kError; }))
      << rules_of(findings);
  const auto recorded = recorded_renames(lowered_);
  ASSERT_TRUE(recorded.ok() && recorded.value().has_value()) << (recorded.ok() ? "" : recorded.message());
  EXPECT_EQ(recorded.value()->size(), 4u);
  EXPECT_EQ(rules_of(diff(original_, lowered_, *recorded.value())), "");
  // Without the mapping the same program breaks a promise per renamed buffer.
  EXPECT_EQ(diff(original_, lowered_, {}).size(), 4u);
}

TEST_F(RenameNested, RenamingInputsButNotMutationTargetsIsCaught) {
  lowering::RenameScope inputs_only;
  inputs_only.mutation_targets = false;
  lowering::apply_renames(lowered_, renames_, inputs_only);
  lowering::record_renames(lowered_, renames_);

  const auto findings = check(lowered_);
  const auto dangling = std::find_if(findings.begin(), findings.end(), [](const Finding& f) {
    return f.rule_name == "mutation-target-resolves";
  });
  ASSERT_NE(dangling, findings.end()) << rules_of(findings);
  const bool suggests = std::any_of(dangling->notes.begin(), dangling->notes.end(), [](const Note& note) {
    return note.text.find("did you mean") != std::string::npos &&
           note.text.find("lifted_buf_layers_") != std::string::npos;
  });
  EXPECT_TRUE(suggests) << dangling->message;

  const auto recorded = recorded_renames(lowered_);
  ASSERT_TRUE(recorded.ok() && recorded.value().has_value());
  const auto broken = diff(original_, lowered_, *recorded.value());
  ASSERT_EQ(broken.size(), 4u) << rules_of(broken);
  for (const Finding& f : broken) EXPECT_EQ(f.rule_name, "write-back-target-renamed") << f.message;
}

TEST_F(RenameNested, RecordingKeepsExistingCustomMetadata) {
  auto* entry = lowered_.mutable_program()->mutable_graph_module()->add_metadata();
  entry->set_key("custom");
  entry->set_value("{\"owner\": \"me\"}");
  lowering::record_renames(lowered_, renames_);
  EXPECT_NE(entry->value().find("\"owner\": \"me\""), std::string::npos);
  const auto recorded = recorded_renames(lowered_);
  EXPECT_TRUE(recorded.ok() && recorded.value().has_value()) << (recorded.ok() ? "" : recorded.message());
}

}  // namespace
}  // namespace pt2lint
