// `--op-schemas FILE` (check, diff, lower, contract, schemas): custom op schema files.
#pragma once

#include <CLI/CLI.hpp>

#include <string>
#include <vector>

#include "analysis/opschema/schema_catalog.h"

namespace pt2lint {

void add_op_schemas_option(CLI::App& command, std::vector<std::string>& files);

// Adds every file to `catalog`; prints each bad line or unreadable file on stderr and returns
// false when there was one (a usage error).
bool load_op_schema_files(const std::vector<std::string>& files, opschema::SchemaCatalog& catalog);

}  // namespace pt2lint
