// Reads pt2lint's config from `.pt2lint.toml` (top level) or `pyproject.toml` ([tool.pt2lint]).
#pragma once

#include <filesystem>
#include <string>
#include <string_view>

#include "core/rule_registry.h"
#include "engine/config/config.h"
#include "support/status.h"

namespace pt2lint {

// The top-level keys a config may hold, for "did you mean" and the docs.
inline constexpr std::string_view kConfigKeys[] = {"select", "extend-select", "ignore", "severity",
                                                   "op-schemas", "per-file-ignores", "rules", "docs-url",
                                                   "exclude", "extend-exclude", "respect-gitignore",
                                                   "baseline"};

// Parses `text` as the config file `file` (whose name decides the layout). Every rule it
// names must exist in `registry`. A failure's message has the form "FILE:LINE:COL: message"
// (with a "did you mean" hint for a misspelt key or rule).
Expected<Config> parse_config(std::string_view text, const std::filesystem::path& file,
                              const RuleRegistry& registry);

// Reads and parses `file`.
Expected<Config> load_config(const std::filesystem::path& file, const RuleRegistry& registry);

// Whether `pyproject` has a [tool.pt2lint] table; a pyproject.toml without one does not stop
// the search for a config further up. A file that is not valid TOML counts as having one,
// so that loading it reports the syntax error instead of silently skipping it.
bool pyproject_configures_pt2lint(const std::filesystem::path& pyproject);

}  // namespace pt2lint
