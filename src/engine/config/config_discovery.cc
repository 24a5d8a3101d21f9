#include "engine/config/config_discovery.h"

#include <system_error>

#include "engine/config/config_parser.h"

namespace pt2lint {

std::optional<std::filesystem::path> find_config(const std::filesystem::path& checked) {
  namespace fs = std::filesystem;
  std::error_code error;
  fs::path folder = fs::absolute(checked, error).lexically_normal();
  if (error) return std::nullopt;
  if (!fs::is_directory(folder, error)) folder = folder.parent_path();
  while (true) {
    fs::path dedicated = folder / ".pt2lint.toml";
    if (fs::is_regular_file(dedicated, error)) return dedicated;
    fs::path pyproject = folder / "pyproject.toml";
    if (fs::is_regular_file(pyproject, error) && pyproject_configures_pt2lint(pyproject))
      return pyproject;
    // A repository's root ends the walk: a config above the checkout (in a CI runner's home)
    // is not the repository's, and no file of the repository can reach past it.
    if (fs::exists(folder / ".git", error)) return std::nullopt;
    if (!folder.has_parent_path() || folder.parent_path() == folder) return std::nullopt;
    folder = folder.parent_path();
  }
}

}  // namespace pt2lint
