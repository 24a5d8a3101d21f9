// The zip layout torch.export.save wrote in PyTorch 2.1 to 2.7:
// serialized_exported_program.json, pickled state, and a `version` entry.
#pragma once

#include <vector>

#include "io/readers/load_context.h"
#include "io/readers/program_output.h"
#include "io/readers/zip/zip_archive.h"
#include "program.pb.h"

namespace pt2lint {

void load_legacy_zip(const ZipArchive& zip, const ZipArchive::Member& program_member,
                     LoadContext& context, ProgramOutput& out);

}  // namespace pt2lint
