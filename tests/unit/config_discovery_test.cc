#include <gtest/gtest.h>

#include <fstream>

#include "engine/config/config_discovery.h"
#include "engine/config/config_filter.h"
#include "support/path_glob.h"

namespace pt2lint {
namespace {

namespace fs = std::filesystem;

class ConfigDiscovery : public testing::Test {
 protected:
  void SetUp() override {
    root_ = fs::temp_directory_path() /
            ("pt2lint_config_" + std::string(testing::UnitTest::GetInstance()->current_test_info()->name()));
    fs::remove_all(root_);
    fs::create_directories(root_ / "zoo/models/legacy");
  }
  void TearDown() override { fs::remove_all(root_); }
  void write(const fs::path& file, std::string_view text) { std::ofstream(root_ / file) << text; }
  fs::path root_;
};

TEST_F(ConfigDiscovery, ClosestConfigWins) {
  write("zoo/pyproject.toml", "[tool.pt2lint]\nignore = []\n");
  write("zoo/models/legacy/a.pt2", "");
  EXPECT_EQ(find_config(root_ / "zoo/models/legacy/a.pt2"), root_ / "zoo/pyproject.toml");
  write("zoo/models/.pt2lint.toml", "");
  EXPECT_EQ(find_config(root_ / "zoo/models/legacy/a.pt2"), root_ / "zoo/models/.pt2lint.toml");
  EXPECT_EQ(find_config(root_ / "zoo/models"), root_ / "zoo/models/.pt2lint.toml");
}

TEST_F(ConfigDiscovery, PyprojectWithoutOurTableIsPassedOver) {
  write("zoo/pyproject.toml", "[tool.pt2lint]\n");
  write("zoo/models/pyproject.toml", "[project]\nname = \"models\"\n");
  EXPECT_EQ(find_config(root_ / "zoo/models/legacy"), root_ / "zoo/pyproject.toml");
}

TEST(ConfigGlob, MatchesLikeGitignore) {
  EXPECT_TRUE(path_matches("*.pt2", "a/b/c.pt2"));
  EXPECT_TRUE(path_matches("legacy/*.pt2", "legacy/x.pt2"));
  EXPECT_FALSE(path_matches("legacy/*.pt2", "legacy/sub/x.pt2"));
  EXPECT_TRUE(path_matches("legacy/**/*.pt2", "legacy/x.pt2"));
  EXPECT_TRUE(path_matches("legacy/**/*.pt2", "legacy/sub/deep/x.pt2"));
  EXPECT_TRUE(path_matches("**/hf_*.pt2", "zoo/hf_llama.pt2"));
  EXPECT_TRUE(path_matches("./models/[a-c]?.pt2", "models/b1.pt2"));
  EXPECT_FALSE(path_matches("models/[!a-c]?.pt2", "models/b1.pt2"));
  EXPECT_FALSE(path_matches("models/*.pt2", "other/x.pt2"));
}

TEST_F(ConfigDiscovery, PerFileIgnoresResolvePerFile) {
  static const RuleInfo kTarget{"PT204", "mutation-target-resolves", Severity::kError, RulePhase::kLoad, ""};
  static const RuleInfo kUnused{"PT306", "state-is-used", Severity::kWarning, RulePhase::kLoad, ""};
  RuleRegistry registry;
  registry.add_reported_elsewhere(kTarget);
  registry.add_reported_elsewhere(kUnused);
  Config config;
  config.base_dir = root_ / "zoo";
  config.per_file_ignores.push_back({"models/legacy/*.pt2", {"PT204"}});
  config.severity.emplace_back("state-is-used", Severity::kError);
  Expected<RuleFilter> built = build_rule_filter(config, {}, registry);
  ASSERT_TRUE(built.ok()) << built.message();
  const RuleFilter& filter = built.value();
  EXPECT_FALSE(filter.for_file(root_ / "zoo/models/legacy/a.pt2").enabled("PT204"));
  EXPECT_TRUE(filter.for_file(root_ / "zoo/models/a.pt2").enabled("PT204"));
  EXPECT_EQ(filter.severity("PT306", Severity::kWarning), Severity::kError);
}

TEST(ConfigFilter, CommandLineSelectReplacesTheConfigs) {
  static const RuleInfo kTarget{"PT204", "mutation-target-resolves", Severity::kError, RulePhase::kLoad, ""};
  static const RuleInfo kUnused{"PT306", "state-is-used", Severity::kWarning, RulePhase::kLoad, ""};
  RuleRegistry registry;
  registry.add_reported_elsewhere(kTarget);
  registry.add_reported_elsewhere(kUnused);
  Config config;
  config.select = std::vector<std::string>{"PT204"};
  Expected<RuleFilter> from_config = build_rule_filter(config, {}, registry);
  ASSERT_TRUE(from_config.ok());
  EXPECT_FALSE(from_config->enabled("PT306"));
  Expected<RuleFilter> from_cli = build_rule_filter(config, {{"PT3"}, {}, {}}, registry);
  ASSERT_TRUE(from_cli.ok());
  EXPECT_TRUE(from_cli->enabled("PT306"));
  EXPECT_FALSE(from_cli->enabled("PT204"));
  config.select = std::vector<std::string>{};
  Expected<RuleFilter> none = build_rule_filter(config, {}, registry);
  ASSERT_TRUE(none.ok());
  EXPECT_FALSE(none->enabled("PT204"));
  Expected<RuleFilter> bad = build_rule_filter(Config{}, {{}, {"state-is-usd"}, {}}, registry);
  EXPECT_FALSE(bad.ok());
  EXPECT_NE(bad.message().find("did you mean 'state-is-used'?"), std::string::npos) << bad.message();
}

}  // namespace
}  // namespace pt2lint
