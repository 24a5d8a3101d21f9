// One program JSON document into Program::program, plus the schema-version check every
// layout applies afterwards.
#pragma once

#include "frontends/load_context.h"
#include "frontends/padded_bytes.h"
#include "program.pb.h"

namespace pt2lint {

// `program.name` and `program.json_path` must be set: findings are filed under them.
void read_program_json(LoadContext& context, const PaddedBytes& json, ir::Program& program);

// Reports unsupported-schema-version when the schema major is not the one this build reads.
// The program stays usable: rules still run on it.
void check_schema_version(LoadContext& context, const ir::Program& program);

}  // namespace pt2lint
