// Finds the config that applies to a checked path, the way ruff finds pyproject.toml.
#pragma once

#include <filesystem>
#include <optional>

namespace pt2lint {

// Walks up from `checked` (a file's folder, or a folder) to the repository's root (the folder
// holding `.git`) or else the filesystem root, and returns the closest `.pt2lint.toml`, or
// `pyproject.toml` with a [tool.pt2lint] table; in one folder `.pt2lint.toml` wins. Configs
// are not merged: the closest one applies alone.
std::optional<std::filesystem::path> find_config(const std::filesystem::path& checked);

}  // namespace pt2lint
