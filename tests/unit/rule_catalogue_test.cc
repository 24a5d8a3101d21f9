// The rule catalogue (core/rule_catalogue.def) against everything that must agree with it:
// the registry, each rule's docs page and goldens, the README's rule tables, and src/, which
// names rules only through the catalogue's constants.
#include <gtest/gtest.h>

#include <algorithm>
#include <cctype>
#include <filesystem>
#include <fstream>
#include <map>
#include <memory>
#include <regex>
#include <set>
#include <sstream>
#include <stdexcept>
#include <string>
#include <vector>

#include "core/rule.h"
#include "core/rule_catalogue.h"
#include "core/rule_registry.h"
#include "rules/register_all_rules.h"

namespace pt2lint {
namespace {

namespace fs = std::filesystem;

const fs::path kRoot = fs::path(PT2LINT_TESTS_DIR).parent_path();

std::string read_text(const fs::path& path) {
  std::ifstream in(path);
  std::stringstream text;
  text << in.rdbuf();
  return text.str();
}

// A rule's goldens: tests/golden/<group>/<name>/, where the group is its phase
// (structural, dataflow, contract) or `files` for goldens that are whole archives.
std::vector<fs::path> golden_folders(const RuleInfo& info) {
  std::vector<fs::path> folders;
  for (const char* group : {"files", "structural", "dataflow", "contract"}) {
    const fs::path folder = kRoot / "tests/golden" / group / info.name;
    if (fs::is_directory(folder)) folders.push_back(folder);
  }
  return folders;
}

// The string literals of C++ source `text`, comments skipped. Raw strings (R"d(...)d") are
// read to their closing delimiter; a quote after a digit is a digit separator (1'000).
std::vector<std::string> cpp_string_literals(const std::string& text) {
  std::vector<std::string> literals;
  const auto word_char = [](char c) {
    return std::isalnum(static_cast<unsigned char>(c)) || c == '_';
  };
  for (std::size_t i = 0; i < text.size(); ++i) {
    if (text.compare(i, 2, "//") == 0) {
      i = text.find('\n', i);
    } else if (text.compare(i, 2, "/*") == 0) {
      i = text.find("*/", i + 2);
      if (i != std::string::npos) ++i;
    } else if (text[i] == '\'' && (i == 0 || !word_char(text[i - 1]))) {
      for (++i; i < text.size() && text[i] != '\''; ++i)
        if (text[i] == '\\') ++i;
    } else if (text[i] == '"' && i > 0 && text[i - 1] == 'R') {
      const std::size_t open = text.find('(', i);
      if (open == std::string::npos) break;
      const std::string close = ")" + text.substr(i + 1, open - i - 1) + "\"";
      const std::size_t end = text.find(close, open);
      literals.push_back(text.substr(open + 1, end == std::string::npos ? end : end - open - 1));
      i = end == std::string::npos ? end : end + close.size() - 1;
    } else if (text[i] == '"') {
      std::string literal;
      for (++i; i < text.size() && text[i] != '"'; ++i) {
        if (text[i] == '\\') ++i;
        if (i < text.size()) literal += text[i];
      }
      literals.push_back(std::move(literal));
    }
    if (i == std::string::npos) break;
  }
  return literals;
}

class FakeRule final : public Rule {
 public:
  explicit FakeRule(const RuleInfo& info) : info_(info) {}
  const RuleInfo& info() const override { return info_; }
  void check(const ProgramIndex&, DiagnosticSink&) const override {}

 private:
  const RuleInfo& info_;
};

TEST(RuleCatalogue, RegistryHoldsEveryEntryOnceInCatalogueOrder) {
  RuleRegistry registry;
  register_all_rules(registry);
  ASSERT_EQ(registry.all().size(), kRuleCatalogue.size());
  for (std::size_t i = 0; i < kRuleCatalogue.size(); ++i)
    EXPECT_EQ(registry.all()[i], kRuleCatalogue[i]) << kRuleCatalogue[i]->id;
  // The engine runs structural and dataflow rules; the others are reported elsewhere.
  for (const auto& rule : registry.rules())
    EXPECT_TRUE(rule->info().phase == RulePhase::kStructural ||
                rule->info().phase == RulePhase::kDataflow)
        << rule->info().id;
}

TEST(RuleCatalogue, IdsAndNamesAreUniqueAndWellFormed) {
  std::set<std::string_view> ids, names;
  for (const RuleInfo* info : kRuleCatalogue) {
    EXPECT_TRUE(ids.insert(info->id).second) << "duplicate ID " << info->id;
    EXPECT_TRUE(names.insert(info->name).second) << "duplicate name " << info->name;
    // The ID's hundreds digit is the phase: PT1xx load ... PT4xx contract.
    ASSERT_EQ(info->id.size(), 5u) << info->id;
    EXPECT_EQ(info->id.substr(0, 2), "PT");
    EXPECT_EQ(info->id[2] - '1', static_cast<int>(info->phase)) << info->id;
    EXPECT_FALSE(info->summary.empty()) << info->id;
    EXPECT_EQ(info->name.find_first_not_of("abcdefghijklmnopqrstuvwxyz0123456789-"),
              std::string_view::npos)
        << info->name;
  }
}

TEST(RuleCatalogue, RegistryRefusesADuplicateIdNameOrAlias) {
  static constexpr RuleInfo kSameId{"PT201", "some-new-rule", Severity::kError,
                                    RulePhase::kStructural, "a rule reusing PT201"};
  static constexpr RuleInfo kSameName{"PT299", "value-names-unique", Severity::kError,
                                      RulePhase::kStructural, "a rule reusing a name"};
  RuleRegistry registry;
  register_all_rules(registry);
  EXPECT_THROW(registry.add_rule(std::make_unique<FakeRule>(kSameId)), std::logic_error);
  EXPECT_THROW(registry.add_reported_elsewhere(kSameName), std::logic_error);
  EXPECT_THROW(registry.add_alias("mutation-target-resolves", kValueNamesUnique),
               std::logic_error);
}

TEST(RuleCatalogue, AFormerNameSelectsTheRenamedRule) {
  RuleRegistry registry;
  register_all_rules(registry);
  registry.add_alias("values-named-once", kValueNamesUnique);
  EXPECT_EQ(registry.find("values-named-once"), &kValueNamesUnique);
  ASSERT_EQ(registry.match("values-named-once").size(), 1u);
  EXPECT_EQ(registry.match("values-named-once")[0], &kValueNamesUnique);
  ASSERT_EQ(registry.aliases_of(kValueNamesUnique).size(), 1u);
  EXPECT_TRUE(registry.aliases_of(kMutationTargetResolves).empty());
}

TEST(RuleCatalogue, EveryRuleHasADocsPageNamingIt) {
  for (const RuleInfo* info : kRuleCatalogue) {
    const fs::path page = kRoot / "docs/rules" / (std::string(info->name) + ".md");
    ASSERT_TRUE(fs::exists(page)) << info->id << " has no docs page " << page;
    EXPECT_NE(read_text(page).find(info->id), std::string::npos)
        << page << " does not mention " << info->id;
  }
}

TEST(RuleCatalogue, EveryRuleHasABadAndAGoodGolden) {
  for (const RuleInfo* info : kRuleCatalogue) {
    const std::vector<fs::path> folders = golden_folders(*info);
    EXPECT_FALSE(folders.empty()) << info->id << " has no folder tests/golden/*/" << info->name;
    bool bad = false, good = false;
    for (const fs::path& folder : folders) {
      for (const auto& entry : fs::directory_iterator(folder)) {
        const std::string name = entry.path().filename().string();
        if (name.ends_with(".expect")) continue;  // a sidecar, not a golden
        bad = bad || name.starts_with("bad_");
        good = good || name.starts_with("good");
      }
    }
    EXPECT_TRUE(bad) << info->id << " " << info->name << " has no bad_* golden";
    EXPECT_TRUE(good) << info->id << " " << info->name << " has no good* golden";
  }
}

// scripts/rule_table.py writes these rows; a hand edit of either side shows up here.
TEST(RuleCatalogue, ReadmeTablesMatchTheCatalogue) {
  std::map<std::string, std::string> rows;  // ID -> row
  std::istringstream readme(read_text(kRoot / "README.md"));
  for (std::string line; std::getline(readme, line);)
    if (line.size() > 8 && line.starts_with("| PT") && line.substr(7, 3) == " | " &&
        std::isdigit(static_cast<unsigned char>(line[4])))
      rows[line.substr(2, 5)] = line;
  for (const RuleInfo* info : kRuleCatalogue) {
    const std::string name(info->name);
    const std::string expected =
        "| " + std::string(info->id) + " | [`" + name + "`](docs/rules/" + name + ".md) | " +
        std::string(severity_name(info->default_severity)) +
        (info->default_enabled ? "" : ", opt-in") + " | " + std::string(info->summary) + " |";
    auto row = rows.find(std::string(info->id));
    ASSERT_NE(row, rows.end()) << "README has no row for " << info->id
                               << ": run scripts/rule_table.py";
    EXPECT_EQ(row->second, expected) << "run scripts/rule_table.py";
    rows.erase(row);
  }
  for (const auto& [id, row] : rows) ADD_FAILURE() << "README lists " << id << ", not in the catalogue";
}

// A rule named by text outside the catalogue ("PT101", "mutation-target-resolves") still
// compiles when misspelt, and then silently matches nothing: src/ writes `kMalformedProgram.id`.
TEST(RuleCatalogue, SourceNamesRulesOnlyThroughTheCatalogue) {
  const std::regex rule_id("PT[0-9]{3}");
  std::set<std::string_view> names;
  for (const RuleInfo* info : kRuleCatalogue) names.insert(info->name);
  int files = 0;
  for (const auto& entry : fs::recursive_directory_iterator(kRoot / "src")) {
    const fs::path& path = entry.path();
    if (path.extension() != ".cc" && path.extension() != ".h") continue;
    ++files;
    for (const std::string& literal : cpp_string_literals(read_text(path))) {
      EXPECT_FALSE(std::regex_search(literal, rule_id))
          << path << ": the literal \"" << literal << "\" names a rule by ID; use its k<Class>.id";
      EXPECT_FALSE(names.contains(literal))
          << path << ": the literal \"" << literal << "\" names a rule; use its k<Class>.name";
    }
  }
  EXPECT_GT(files, 100) << "src/ not found under " << kRoot;
}

}  // namespace
}  // namespace pt2lint

namespace pt2lint {
namespace {

// Every rule file opens the same way (CONTRIBUTING.md, "Adding a rule"): its ID and name, then
// one line of what it reports, the why, and its docs page last; no severity, which lives in the
// catalogue alone and would go stale in a comment.
TEST(RuleCatalogue, RuleFilesOpenWithIdNameAndDocsPage) {
  int checked = 0;
  for (const RuleInfo* info : kRuleCatalogue) {
    if (info->phase != RulePhase::kStructural && info->phase != RulePhase::kDataflow) continue;
    std::string stem(info->name);
    std::replace(stem.begin(), stem.end(), '-', '_');
    const char* folder = info->phase == RulePhase::kStructural ? "structural" : "dataflow";
    const fs::path path = kRoot / "src" / "rules" / folder / (stem + ".cc");
    std::istringstream text(read_text(path));
    std::vector<std::string> opening;
    for (std::string line; std::getline(text, line) && line.starts_with("//");) opening.push_back(line);
    ASSERT_GE(opening.size(), 2U) << path << " has no opening comment";
    const std::string head = "// " + std::string(info->id) + " " + std::string(info->name) + ": ";
    EXPECT_TRUE(opening.front().starts_with(head)) << path << " should open with `" << head << "...`";
    EXPECT_EQ(opening.back(), "// docs/rules/" + std::string(info->name) + ".md") << path;
    for (const std::string& line : opening)
      EXPECT_FALSE(line.find("(warning") != std::string::npos || line.find("(error") != std::string::npos ||
                   line.find("opt-in)") != std::string::npos)
          << path << ": the opening comment states a severity: " << line;
    ++checked;
  }
  EXPECT_GT(checked, 30);
}

}  // namespace
}  // namespace pt2lint
