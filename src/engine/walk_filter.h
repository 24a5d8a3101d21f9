// Which files and folders a folder walk skips: the `exclude` patterns (the defaults, a config's
// `exclude`/`extend-exclude`, --exclude/--extend-exclude) and, inside a git work tree, the
// .gitignore files, as ruff does. Files named on the command line are never skipped.
#pragma once

#include <filesystem>
#include <string>
#include <string_view>
#include <vector>

namespace pt2lint {

// Folders no one means to lint: version control, virtual environments, caches.
inline constexpr std::string_view kDefaultExcludes[] = {
    ".bzr", ".direnv", ".eggs", ".git", ".git-rewrite", ".hg", ".ipynb_checkpoints",
    ".mypy_cache", ".nox", ".pants.d", ".pyenv", ".pytest_cache", ".pytype", ".ruff_cache",
    ".svn", ".tox", ".venv", ".vscode", "__pycache__", "__pypackages__", "_build", "buck-out",
    "node_modules", "site-packages", "venv"};

struct WalkExclusions {
  // Glob patterns (support/path_glob.h): one without '/' names a file or folder anywhere, one
  // with '/' is matched against the path relative to `base`.
  std::vector<std::string> patterns;
  std::filesystem::path base;  // the config's folder, else the walked folder
  bool respect_gitignore = true;
};

// The default patterns, replaced by `exclude` when one is given, then `extend_exclude`.
std::vector<std::string> exclusion_patterns(const std::vector<std::string>* exclude,
                                            const std::vector<std::string>& extend_exclude);

// One .gitignore line, read relative to the folder holding it.
struct GitignoreRule {
  std::string pattern;
  std::filesystem::path folder;
  bool negated = false;      // "!pattern": re-includes
  bool folders_only = false; // "pattern/"
  bool anchored = false;     // a '/' before the end: relative to `folder`, not any name
};

// Appends the rules of FOLDER/.gitignore (none when it has none).
void read_gitignore(const std::filesystem::path& folder, std::vector<GitignoreRule>& rules);

// The folder that holds `.git` at or above `folder`; empty outside a git work tree.
std::filesystem::path git_work_tree(const std::filesystem::path& folder);

// Whether the walk skips `path` (absolute, lexically normal). The last matching gitignore
// rule decides, as in git.
bool excluded(const std::filesystem::path& path, bool is_folder, const WalkExclusions& exclusions,
              const std::vector<GitignoreRule>& gitignore);

}  // namespace pt2lint
