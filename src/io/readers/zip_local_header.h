// A member's local header, read where the central directory says it is. PyTorch's reader
// (miniz) takes sizes, method and CRC-32 from the central directory and uses the local header
// only to find where the data starts; pt2lint reads members the same way, and says when the
// two headers disagree instead of refusing a file PyTorch loads.
#pragma once

#include <cstdint>
#include <string>

#include "io/readers/archive_bytes.h"

namespace pt2lint {

struct LocalHeader {
  std::uint16_t flags = 0;
  std::uint16_t method = 0;
  std::uint32_t crc = 0;
  std::uint64_t compressed_size = 0;  // as the 32-bit fields say (0xFFFFFFFF under zip64)
  std::uint64_t size = 0;
  std::string name;
  std::uint64_t data_offset = 0;      // where the member's stored bytes start
};

// False, with `error` saying why, when no local header lies at `offset`.
bool read_local_header(ArchiveBytes& bytes, std::uint64_t offset, LocalHeader& header,
                       std::string& error);

// What in `header` differs from the central directory's name, method, CRC-32 and sizes
// (the last two only when the local header carries them: no data descriptor, no zip64);
// empty when they agree.
std::string local_header_disagreement(const LocalHeader& header, const std::string& name,
                                      std::uint16_t method, std::uint32_t crc,
                                      std::uint64_t compressed_size, std::uint64_t size);

}  // namespace pt2lint
