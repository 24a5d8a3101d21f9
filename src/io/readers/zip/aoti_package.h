// AOTInductor packages (torch._inductor.aoti_compile_and_package) are zip archives laid out
// like PT2 archives, but may hold only compiled code under data/aotinductor/<model>/ and no
// exported program. They are recognised, with or without a root folder, and reported as what
// they are instead of as a broken archive.
#pragma once

#include <string>
#include <vector>

#include "io/readers/load_context.h"
#include "io/readers/zip/zip_archive.h"

namespace pt2lint {

// True (after reporting the one aotinductor-package finding) when `zip` is an AOTInductor
// package that holds no exported program: members under '<root>data/aotinductor/', no
// '<root>models/<name>.json' and no legacy 'serialized_exported_program.json'.
// `root` is the archive's root folder with its slash ("model/"), or empty.
bool report_if_aoti_only(const ZipArchive& zip, const std::string& root,
                         std::string_view file_name, LoadContext& context);

}  // namespace pt2lint
