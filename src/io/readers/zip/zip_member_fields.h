// The fields a zip member's local header and its central-directory record both carry
// (APPNOTE 4.3.7 and 4.3.12), so that each reader says only what is its own.
#pragma once

#include <cstdint>

namespace pt2lint {

struct ZipMemberFields {
  std::uint16_t flags = 0;   // general-purpose bit flags (encryption, data descriptor, ...)
  std::uint16_t method = 0;  // 0 stored, 8 deflated
  std::uint64_t compressed_size = 0;
  std::uint64_t size = 0;    // uncompressed
};

}  // namespace pt2lint
