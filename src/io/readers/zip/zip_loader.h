// A zip archive into programs: reports unsafe members, then tells the PT2 archive layout
// from the legacy one by what the safe members are.
#pragma once

#include <vector>

#include "io/readers/load_context.h"
#include "io/readers/program_output.h"
#include "io/readers/zip/zip_archive.h"
#include "program.pb.h"

namespace pt2lint {

void load_zip(const ZipArchive& zip, std::string_view file_name, LoadContext& context,
              ProgramOutput& out);

// Reads a short text member (archive_format, version, ...), with surrounding whitespace
// removed unless `exact` (PT2 archives: load_pt2 compares the bytes as they are). Reports
// malformed-program under `program` and returns false when it cannot.
bool read_text_member(const ZipArchive& zip, const ZipArchive::Member& member,
                      std::string_view program, LoadContext& context, std::string& text,
                      bool exact = false);

// Reads a JSON member into a padded buffer, reporting malformed-program when it cannot.
bool read_json_member(const ZipArchive& zip, const ZipArchive::Member& member,
                      std::uint64_t max_bytes, std::string_view program, LoadContext& context,
                      PaddedBytes& json, ZipArchive::Crc crc = ZipArchive::Crc::kCheck);

// Reports `member` as unreadable because `error`, as read_json_member does.
void report_unreadable_member(const ZipArchive::Member& member, std::string_view error,
                              std::string_view program, LoadContext& context);

}  // namespace pt2lint
