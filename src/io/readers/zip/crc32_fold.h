// CRC-32 (the zip / gzip polynomial, as zlib's crc32_z computes it) of large buffers by
// carry-less multiplication (PCLMULQDQ) where the CPU has it, zlib otherwise. zlib 1.2.13's
// table-driven crc32_z costs ~4.3 instructions a byte: 37 M of kv_nested_256l's 393 M (the
// program JSON's CRC, 8.6 MB). Folding 64 bytes at a time costs ~0.3 a byte. libdeflate's CRC
// was tried before and dropped: loading the library costs 0.5 ms of every run.
#pragma once

#include <cstddef>
#include <cstdint>

namespace pt2lint {

// The CRC-32 of `bytes` continued from `crc` (0 for a new one), as crc32_z(crc, bytes, n).
std::uint32_t crc32_of(std::uint32_t crc, const char* bytes, std::size_t n);

}  // namespace pt2lint
