// A zip archive into programs: reports unsafe members, then tells the PT2 archive layout
// from the legacy one by what the safe members are.
#pragma once

#include <string_view>

#include "io/readers/load_context.h"
#include "io/readers/program_output.h"
#include "io/readers/zip/zip_archive.h"

namespace pt2lint {

void load_zip(const ZipArchive& zip, std::string_view file_name, LoadContext& context,
              ProgramOutput& out);

}  // namespace pt2lint
