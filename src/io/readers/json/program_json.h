// One program JSON document into Program::program, plus the schema-version check every
// layout applies afterwards.
#pragma once

#include "io/readers/load_context.h"
#include "io/readers/padded_bytes.h"
#include "program.pb.h"

namespace pt2lint {

// `program.name` and `program.json_path` must be set: findings are filed under them.
// A program of a schema major this build does not read gets one unsupported-schema-version
// finding and is marked not_checked; nothing else of it is converted or reported.
// `discard` and `beside`: see JsonToProto::read (the caller then no longer reads `json`).
// When beside->read_again is set, nothing was reported and `program` must be read again.
void read_program_json(LoadContext& context, const PaddedBytes& json, ir::Program& program,
                       InputDiscard discard = {}, ReadBeside* beside = nullptr);

// That one finding (under `member`, at `json_path` when the version came from the program
// JSON), and the program emptied and marked not_checked.
void report_unsupported_schema(LoadContext& context, ir::Program& program, long long major,
                               long long minor, bool integer_form, std::string_view member,
                               std::string_view json_path);

// Reports unsupported-schema-version when the schema major is not the one this build reads.
// For textproto programs (tests and bug reports), which are already IR: rules still run.
void check_schema_version(LoadContext& context, const ir::Program& program);

}  // namespace pt2lint
