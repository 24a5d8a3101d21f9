// The state storage model (src/analysis/state/state_storage.h) and the opt-in rule selection.
#include <google/protobuf/text_format.h>
#include <gtest/gtest.h>

#include "analysis/state/framework_buffers.h"
#include "analysis/state/state_storage.h"
#include "core/rule_filter.h"
#include "core/rule_registry.h"
#include "engine/config/config_filter.h"
#include "rules/register_all_rules.h"

namespace pt2lint {
namespace {

// GPT-2 style tied weights (two specs, one record), a strict=True tie (one spec, a second
// config entry on its record), a non-persistent buffer sharing a constants record with a
// tensor constant (transformers' static cache), and an untied parameter.
constexpr const char* kProgram = R"pb(
  name: "model"
  program {
    graph_module {
      signature {
        input_specs { parameter { arg { name: "p_wte" } parameter_name: "wte.weight" } }
        input_specs { parameter { arg { name: "p_head" } parameter_name: "head.weight" } }
        input_specs { parameter { arg { name: "p_enc" } parameter_name: "enc.weight" } }
        input_specs { parameter { arg { name: "p_lin" } parameter_name: "lin.weight" } }
        input_specs { buffer { arg { name: "b_k" } buffer_name: "key_cache_0" persistent: false } }
        input_specs { tensor_constant { arg { name: "c_t" } tensor_constant_name: "lifted_tensor_2" } }
      }
    }
  }
  weights {
    present: true
    config {
      config { key: "wte.weight" value { path_name: "weight_0" } }
      config { key: "head.weight" value { path_name: "weight_0" } }
      config { key: "enc.weight" value { path_name: "weight_1" } }
      config { key: "dec.weight" value { path_name: "weight_1" } }
      config { key: "lin.weight" value { path_name: "weight_2" } }
    }
  }
  constants {
    present: true
    config {
      config { key: "key_cache_0" value { path_name: "tensor_2" } }
      config { key: "lifted_tensor_2" value { path_name: "tensor_2" } }
    }
  }
)pb";

ir::Program parse(const char* text) {
  ir::Program program;
  EXPECT_TRUE(google::protobuf::TextFormat::ParseFromString(text, &program));
  return program;
}

using Names = std::vector<std::string_view>;

TEST(StateStorage, NamesSharingARecordAreOneStorage) {
  const ir::Program program = parse(kProgram);
  StateStorage storage(program);
  EXPECT_EQ(storage.aliases_of("wte.weight"), Names{"head.weight"});
  EXPECT_EQ(storage.aliases_of("head.weight"), Names{"wte.weight"});
  EXPECT_EQ(storage.aliases_of("dec.weight"), Names{"enc.weight"});  // only a config lists it
  EXPECT_EQ(storage.aliases_of("key_cache_0"), Names{"lifted_tensor_2"});
  EXPECT_TRUE(storage.aliases_of("lin.weight").empty());
  EXPECT_FALSE(storage.aliased("lin.weight"));
  EXPECT_FALSE(storage.aliased("not.there"));
  EXPECT_TRUE(storage.same_storage("head.weight", "wte.weight"));
  EXPECT_FALSE(storage.same_storage("head.weight", "enc.weight"));
  EXPECT_EQ(storage.canonical("head.weight"), "wte.weight");  // the first name listed
  EXPECT_NE(storage.why_shared("head.weight").find("weights record `weight_0`"), std::string::npos);
  EXPECT_NE(storage.why_shared("key_cache_0").find("constants record `tensor_2`"), std::string::npos);
  EXPECT_EQ(storage.alias_groups().size(), 3u);
  EXPECT_TRUE(storage.has_aliases());
}

TEST(StateStorage, OnePlaceholderLiftingTwoNames) {
  ir::Program program = parse(kProgram);
  program.clear_weights();
  program.clear_constants();
  auto* spec = program.mutable_program()->mutable_graph_module()->mutable_signature()->add_input_specs();
  spec->mutable_buffer()->mutable_arg()->set_name("p_lin");
  spec->mutable_buffer()->set_buffer_name("lin.alias");
  StateStorage storage(program);
  EXPECT_EQ(storage.aliases_of("lin.weight"), Names{"lin.alias"});
  EXPECT_NE(storage.why_shared("lin.alias").find("placeholder `p_lin`"), std::string::npos);
  EXPECT_FALSE(storage.aliased("wte.weight"));  // no configs: records say nothing
}

TEST(FrameworkBuffers, KeyedByModuleClassNotBySuffix) {
  EXPECT_TRUE(framework_buffer("torch.nn.modules.batchnorm.BatchNorm2d", "num_batches_tracked"));
  EXPECT_TRUE(framework_buffer("timm.layers.norm_act.BatchNormAct2d", "num_batches_tracked"));
  EXPECT_FALSE(framework_buffer("my.models.Counter", "num_batches_tracked"));
  EXPECT_FALSE(framework_buffer("torch.nn.modules.batchnorm.BatchNorm2d", "running_mean"));
  EXPECT_TRUE(framework_buffer("transformers.models.llama.modeling_llama.LlamaRotaryEmbedding",
                               "original_inv_freq"));
  EXPECT_FALSE(framework_buffer("my.RotaryEmbedding", "original_inv_freq"));
}

class OptInSelection : public ::testing::Test {
 protected:
  void SetUp() override { register_all_rules(registry_); }
  RuleFilter build(const Config& config, CommandLineSelection cli) {
    Expected<RuleFilter> filter = build_rule_filter(config, cli, registry_);
    EXPECT_TRUE(filter.ok()) << filter.message();
    return filter.ok() ? filter.value() : RuleFilter();
  }
  RuleRegistry registry_;
};

TEST_F(OptInSelection, StateIsUsedRunsOnlyWhenSelected) {
  const RuleInfo* opt_in = registry_.find("state-is-used");
  ASSERT_NE(opt_in, nullptr);
  EXPECT_FALSE(opt_in->default_enabled);
  EXPECT_TRUE(registry_.find("aliased-state-written")->default_enabled);

  RuleFilter defaults = build({}, {});
  EXPECT_FALSE(defaults.enabled("PT306"));
  EXPECT_TRUE(defaults.enabled("PT308"));
  EXPECT_TRUE(defaults.enabled("PT201"));

  RuleFilter extended = build({}, {.extend_select = {"state-is-used"}});
  EXPECT_TRUE(extended.enabled("PT306"));
  EXPECT_TRUE(extended.enabled("PT201"));  // the default-on rules stay on

  RuleFilter by_prefix = build({}, {.select = {"PT3"}});  // an existing selection keeps PT306
  EXPECT_TRUE(by_prefix.enabled("PT306"));
  EXPECT_FALSE(by_prefix.enabled("PT201"));

  Config config;
  config.extend_select = {"PT306"};
  RuleFilter from_config = build(config, {.ignore = {"state-is-used"}});
  EXPECT_FALSE(from_config.enabled("PT306"));  // ignore wins

  EXPECT_TRUE(RuleFilter{}.enabled("PT306"));  // an unmarked filter runs everything
}

}  // namespace
}  // namespace pt2lint
