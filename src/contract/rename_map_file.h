// `diff --rename MAP.json`: a JSON object {"old.fqn": "new_name", ...}.
#pragma once

#include <filesystem>
#include <string>

#include "contract/contract_diff.h"
#include "support/status.h"

namespace pt2lint {

// The map the file holds, or why the file is not such a map.
Expected<RenameMap> read_rename_map(const std::filesystem::path& path);

}  // namespace pt2lint
