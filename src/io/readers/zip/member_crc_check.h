// The CRC-32 of the members pt2lint does not otherwise read. PyTorch's zip reader (miniz, built
// with MINIZ_DISABLE_ZIP_READER_CRC32_CHECKS) never checks a CRC, so a member damaged after it
// was written loads as whatever bytes it now holds: a weight with flipped bits is used as it is.
#pragma once

#include <string_view>

#include "io/readers/load_context.h"
#include "io/readers/zip/zip_archive.h"

namespace pt2lint {

// Members of one PT2 archive (`root`) that no other check reads: by default each one up to
// kMaxCheapCrcMemberBytes that is not a weights or constants record (byteorder,
// .data/serialization_id, ...); with LoadOptions::verify_data every one, records included,
// streamed in chunks. Reports member-crc-mismatch for each whose bytes do not match.
void check_unread_member_crcs(const ZipArchive& zip, std::string_view root, LoadContext& context);

// Reads of this size or less cost one window of the archive reader: checking them is free.
inline constexpr std::uint64_t kMaxCheapCrcMemberBytes = std::uint64_t{64} << 10;

}  // namespace pt2lint
