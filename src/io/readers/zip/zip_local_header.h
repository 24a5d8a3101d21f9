// A member's local header, read where the central directory says it is. PyTorch's reader
// (miniz) takes sizes, method and CRC-32 from the central directory and uses the local header
// only to find where the data starts; pt2lint reads members the same way, and says when the
// two headers disagree instead of refusing a file PyTorch loads.
#pragma once

#include <cstdint>
#include <string>

#include "io/readers/zip/archive_bytes.h"
#include "io/readers/zip/zip_member_fields.h"
#include "support/status.h"

namespace pt2lint {

// compressed_size and size as the 32-bit fields say (0xFFFFFFFF under zip64).
struct LocalHeader : ZipMemberFields {
  std::uint32_t crc = 0;
  std::string name;
  std::uint64_t data_offset = 0;      // where the member's stored bytes start
};

// The local header at `offset`; fails when none lies there.
Expected<LocalHeader> read_local_header(ArchiveBytes& bytes, std::uint64_t offset);

// Fails, saying what differs, when `header` disagrees with the central directory's name,
// method, CRC-32 and sizes (the last two only when the local header carries them: no data
// descriptor, no zip64).
Status check_local_header(const LocalHeader& header, const std::string& name,
                          std::uint16_t method, std::uint32_t crc,
                          std::uint64_t compressed_size, std::uint64_t size);

}  // namespace pt2lint
