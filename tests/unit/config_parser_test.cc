#include <gtest/gtest.h>

#include "engine/config/config_parser.h"

namespace pt2lint {
namespace {

const RuleInfo kTarget{"PT204", "mutation-target-resolves", Severity::kError, RulePhase::kLoad, ""};
const RuleInfo kUnused{"PT306", "state-is-used", Severity::kWarning, RulePhase::kLoad, ""};

class ConfigParser : public testing::Test {
 protected:
  ConfigParser() {
    registry_.add_reported_elsewhere(kTarget);
    registry_.add_reported_elsewhere(kUnused);
  }
  bool parse(std::string_view text, const char* file = ".pt2lint.toml") {
    Expected<Config> parsed = parse_config(text, file, registry_);
    config_ = parsed.ok() ? parsed.value() : Config{};
    error_ = parsed.message();
    return parsed.ok();
  }
  RuleRegistry registry_;
  Config config_;
  std::string error_;
};

TEST_F(ConfigParser, ReadsEveryKey) {
  ASSERT_TRUE(parse(R"(
select = ["PT2", "state-is-used"]
ignore = ["PT306"]
[severity]
state-is-used = "error"
[per-file-ignores]
"legacy/**/*.pt2" = ["mutation-target-resolves"]
[rules.state-is-used]
allow = ["running_mean", "num_batches_tracked"]
max-unused = 3
strict = true
)")) << error_;
  ASSERT_TRUE(config_.select);
  EXPECT_EQ(*config_.select, (std::vector<std::string>{"PT2", "state-is-used"}));
  EXPECT_EQ(config_.ignore, std::vector<std::string>{"PT306"});
  ASSERT_EQ(config_.severity.size(), 1u);
  EXPECT_EQ(config_.severity[0].second, Severity::kError);
  ASSERT_EQ(config_.per_file_ignores.size(), 1u);
  EXPECT_EQ(config_.per_file_ignores[0].pattern, "legacy/**/*.pt2");
  const auto& options = config_.rule_options.at("state-is-used");
  EXPECT_EQ(std::get<std::int64_t>(options.at("max-unused")), 3);
  EXPECT_TRUE(std::get<bool>(options.at("strict")));
  EXPECT_EQ(std::get<std::vector<std::string>>(options.at("allow")).size(), 2u);
}

TEST_F(ConfigParser, ExtendSelectAddsOptInRules) {
  ASSERT_TRUE(parse("extend-select = [\"state-is-used\"]\n")) << error_;
  EXPECT_EQ(config_.extend_select, (std::vector<std::string>{"state-is-used"}));
  EXPECT_FALSE(config_.select);
  EXPECT_FALSE(parse("extend-select = [\"state-is-usd\"]\n"));
  EXPECT_NE(error_.find("did you mean 'state-is-used'"), std::string::npos) << error_;
}

TEST_F(ConfigParser, UnknownKeySuggestsTheClosest) {
  EXPECT_FALSE(parse("selct = [\"PT2\"]\n"));
  EXPECT_NE(error_.find(".pt2lint.toml:1:"), std::string::npos) << error_;
  EXPECT_NE(error_.find("unknown key 'selct'; did you mean 'select'?"), std::string::npos) << error_;
  EXPECT_FALSE(parse("per-file-ignore = {}\n"));
  EXPECT_NE(error_.find("did you mean 'per-file-ignores'?"), std::string::npos) << error_;
}

TEST_F(ConfigParser, UnknownRuleSuggestsTheClosest) {
  EXPECT_FALSE(parse("ignore = [\"state-is-usd\"]\n"));
  EXPECT_NE(error_.find("unknown rule 'state-is-usd'; did you mean 'state-is-used'?"),
            std::string::npos) << error_;
  EXPECT_FALSE(parse("[severity]\nmutation-target-resolve = \"note\"\n"));
  EXPECT_NE(error_.find("did you mean 'mutation-target-resolves'?"), std::string::npos);
  EXPECT_FALSE(parse("[rules.nope-nothing-close]\nx = 1\n"));
  EXPECT_NE(error_.find("unknown rule 'nope-nothing-close'"), std::string::npos);
}

TEST_F(ConfigParser, RejectsBadValues) {
  EXPECT_FALSE(parse("[severity]\nstate-is-used = \"fatal\"\n"));
  EXPECT_FALSE(parse("select = \"PT2\"\n"));
  EXPECT_FALSE(parse("[rules.state-is-used]\nnested = { a = 1 }\n"));
  EXPECT_FALSE(parse("select = [\n"));  // a TOML syntax error, with its position
  EXPECT_NE(error_.find(".pt2lint.toml:"), std::string::npos) << error_;
}

TEST_F(ConfigParser, PyprojectReadsOnlyToolPt2lint) {
  ASSERT_TRUE(parse("[project]\nname = \"zoo\"\n[tool.ruff]\nselect = [\"E\"]\n"
                    "[tool.pt2lint]\nignore = [\"PT306\"]\n",
                    "pyproject.toml")) << error_;
  EXPECT_EQ(config_.ignore, std::vector<std::string>{"PT306"});
  EXPECT_FALSE(config_.select);
  ASSERT_TRUE(parse("[project]\nname = \"zoo\"\n", "pyproject.toml"));
  EXPECT_TRUE(config_.ignore.empty());
  EXPECT_FALSE(parse("[tool.pt2lint]\nignored = []\n", "pyproject.toml"));
  EXPECT_NE(error_.find("did you mean 'ignore'?"), std::string::npos) << error_;
}

}  // namespace
}  // namespace pt2lint
