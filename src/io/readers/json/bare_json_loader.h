// A file that is a program JSON document by itself (what serialize() returns, or a
// hand-written golden test).
#pragma once

#include <string_view>
#include <vector>

#include "io/readers/load_context.h"
#include "io/readers/padded_bytes.h"
#include "io/readers/program_output.h"
#include "program.pb.h"

namespace pt2lint {

// Returns false, reporting nothing, when `found_by_folder_walk` is set and the document is
// not an exported program (no top-level graph_module or schema_version): a folder holds
// plenty of unrelated JSON.
bool load_bare_json(const PaddedBytes& json, std::string_view file_name, LoadContext& context,
                    ProgramOutput& out);

}  // namespace pt2lint
