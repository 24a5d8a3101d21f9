// `diff --rename MAP.json`: a JSON object {"old.fqn": "new_name", ...}.
#pragma once

#include <filesystem>
#include <string>

#include "contract/contract_diff.h"

namespace pt2lint {

// Returns "" and fills `out`, or says why the file is not such a map.
std::string read_rename_map(const std::filesystem::path& path, RenameMap& out);

}  // namespace pt2lint
