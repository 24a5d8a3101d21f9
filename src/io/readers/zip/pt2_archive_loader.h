// The PT2 archive layout (torch.export.save since PyTorch 2.8): one root folder holding
// archive_format, archive_version, models/<name>.json and the weights/constants configs.
#pragma once

#include <string_view>
#include <vector>

#include "io/readers/load_context.h"
#include "io/readers/program_output.h"
#include "io/readers/zip/zip_archive.h"
#include "program.pb.h"

namespace pt2lint {

// `root` is the folder every member lives under, with its trailing slash ("counter/").
void load_pt2_archive(const ZipArchive& zip, std::string_view root, LoadContext& context,
                      ProgramOutput& out);

}  // namespace pt2lint
