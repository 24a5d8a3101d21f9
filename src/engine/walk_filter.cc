#include "engine/walk_filter.h"

#include <fstream>
#include <system_error>

#include "support/path_glob.h"

namespace pt2lint {
namespace {

// `path` relative to `base` with '/' separators; empty when `path` is not below `base`.
std::string relative_below(const std::filesystem::path& path, const std::filesystem::path& base) {
  std::filesystem::path relative = path.lexically_relative(base);
  std::string text = relative.generic_string();
  if (text.empty() || text == "." || text.starts_with("..")) return {};
  return text;
}

bool gitignore_matches(const GitignoreRule& rule, const std::filesystem::path& path, bool is_folder) {
  if (rule.folders_only && !is_folder) return false;
  std::string relative = relative_below(path, rule.folder);
  if (relative.empty()) return false;
  if (rule.anchored) return glob_match(rule.pattern, relative);
  return path_matches(rule.pattern, relative);
}

}  // namespace

std::vector<std::string> exclusion_patterns(const std::vector<std::string>* exclude,
                                            const std::vector<std::string>& extend_exclude) {
  std::vector<std::string> patterns;
  if (exclude != nullptr) {
    patterns = *exclude;
  } else {
    for (std::string_view name : kDefaultExcludes) patterns.emplace_back(name);
  }
  patterns.insert(patterns.end(), extend_exclude.begin(), extend_exclude.end());
  return patterns;
}

void read_gitignore(const std::filesystem::path& folder, std::vector<GitignoreRule>& rules) {
  std::ifstream in(folder / ".gitignore");
  std::string line;
  // A .gitignore is small; a hostile one is bounded by the line count a real one never nears.
  constexpr std::size_t kMaxRules = 10000;
  for (std::size_t count = 0; count < kMaxRules && std::getline(in, line);) {
    if (!line.empty() && line.back() == '\r') line.pop_back();
    while (!line.empty() && line.back() == ' ' && !line.ends_with("\\ ")) line.pop_back();
    if (line.empty() || line.front() == '#') continue;
    GitignoreRule rule;
    rule.folder = folder;
    if (line.front() == '!') {
      rule.negated = true;
      line.erase(0, 1);
    } else if (line.starts_with("\\!") || line.starts_with("\\#")) {
      line.erase(0, 1);
    }
    if (!line.empty() && line.back() == '/') {
      rule.folders_only = true;
      line.pop_back();
    }
    rule.anchored = line.find('/') != std::string::npos;
    if (!line.empty() && line.front() == '/') line.erase(0, 1);
    if (line.empty()) continue;
    rule.pattern = std::move(line);
    rules.push_back(std::move(rule));
    ++count;
  }
}

std::filesystem::path git_work_tree(const std::filesystem::path& folder) {
  std::error_code error;
  for (std::filesystem::path at = folder; !at.empty(); at = at.parent_path()) {
    if (std::filesystem::exists(at / ".git", error)) return at;
    if (at == at.parent_path()) break;
  }
  return {};
}

bool excluded(const std::filesystem::path& path, bool is_folder, const WalkExclusions& exclusions,
              const std::vector<GitignoreRule>& gitignore) {
  std::string name = path.filename().string();
  std::string relative = relative_below(path, exclusions.base);
  for (const std::string& pattern : exclusions.patterns) {
    if (pattern.find('/') == std::string::npos ? glob_match(pattern, name)
                                               : !relative.empty() && path_matches(pattern, relative))
      return true;
  }
  for (auto rule = gitignore.rbegin(); rule != gitignore.rend(); ++rule)
    if (gitignore_matches(*rule, path, is_folder)) return !rule->negated;
  return false;
}

}  // namespace pt2lint
