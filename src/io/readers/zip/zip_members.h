// Reading one member of a zip archive for a loader: a short text member or a JSON member,
// with the finding each loader reports when the member cannot be read or its local header
// disagrees with the central directory. Shared by the PT2 archive and legacy loaders.
#pragma once

#include <cstdint>
#include <string>
#include <string_view>

#include "io/readers/load_context.h"
#include "io/readers/padded_bytes.h"
#include "io/readers/zip/zip_archive.h"

namespace pt2lint {

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
