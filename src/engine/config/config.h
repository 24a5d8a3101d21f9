// pt2lint's settings as a config file states them, before they are resolved against the rules.
#pragma once

#include <cstdint>
#include <filesystem>
#include <map>
#include <optional>
#include <string>
#include <variant>
#include <vector>

#include "core/finding.h"

namespace pt2lint {

// A rule option as written in `[rules.<rule>]`; the rule that reads it validates it.
using RuleOptionValue =
    std::variant<bool, std::int64_t, double, std::string, std::vector<std::string>>;

struct PerFileIgnore {
  std::string pattern;             // glob, relative to the config file's folder
  std::vector<std::string> rules;  // IDs, ID prefixes or names
};

struct Config {
  std::filesystem::path file;      // where it was read from; empty for built-in defaults
  std::filesystem::path base_dir;  // the folder per-file-ignores patterns are relative to
  std::optional<std::vector<std::string>> select;  // unset: every default-on rule
  std::vector<std::string> extend_select;  // added to `select` (or to the default-on rules)
  std::vector<std::string> ignore;
  std::vector<std::pair<std::string, Severity>> severity;  // rule -> severity, as written
  std::vector<PerFileIgnore> per_file_ignores;
  std::map<std::string, std::map<std::string, RuleOptionValue>> rule_options;  // by rule name
  std::vector<std::filesystem::path> op_schemas;  // `op-schemas`, resolved against the config's folder
  std::string docs_url;  // `docs-url`: where the rule pages live, ending in '/'; "" when unset
  // Folder walks: `exclude` replaces the default excludes, `extend-exclude` adds to them.
  std::optional<std::vector<std::string>> exclude;
  std::vector<std::string> extend_exclude;
  bool respect_gitignore = true;  // `respect-gitignore`
  std::filesystem::path baseline;  // `baseline`, resolved against the config's folder
};

}  // namespace pt2lint
