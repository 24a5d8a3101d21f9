// The folded CRC-32 (io/readers/zip/crc32_fold.h) gives zlib's crc32_z for every length, alignment
// and starting value: below 64 bytes (zlib alone), around the 16- and 64-byte block edges,
// and continued in steps as the program member's CRC is.
#include <gtest/gtest.h>
#include <zlib.h>

#include <algorithm>
#include <cstdint>
#include <random>
#include <string>

#include "io/readers/zip/crc32_fold.h"

namespace pt2lint {
namespace {

std::string random_bytes(std::size_t n) {
  std::mt19937 rng(7);
  std::string out(n, '\0');
  for (char& c : out) c = static_cast<char>(rng());
  return out;
}

std::uint32_t zlib_crc(std::uint32_t crc, const char* p, std::size_t n) {
  return static_cast<std::uint32_t>(crc32_z(crc, reinterpret_cast<const Bytef*>(p), n));
}

TEST(ReadersCrc32, MatchesZlibForEveryLengthAndAlignment) {
  const std::string bytes = random_bytes(1200);
  for (std::size_t offset = 0; offset < 16; offset += 5) {
    for (std::size_t n = 0; n + offset <= 1100; ++n) {
      for (std::uint32_t start : {0u, 0xFFFFFFFFu, 0x1234ABCDu}) {
        ASSERT_EQ(crc32_of(start, bytes.data() + offset, n), zlib_crc(start, bytes.data() + offset, n))
            << "length " << n << ", offset " << offset << ", start " << start;
      }
    }
  }
}

TEST(ReadersCrc32, LargeBufferInStepsMatchesOneZlibCall) {
  const std::string bytes = random_bytes((std::size_t{3} << 20) + 37);
  std::uint32_t crc = 0;
  for (std::size_t at = 0; at < bytes.size(); at += 1000003) {
    crc = crc32_of(crc, bytes.data() + at, std::min<std::size_t>(1000003, bytes.size() - at));
  }
  EXPECT_EQ(crc, zlib_crc(0, bytes.data(), bytes.size()));
  EXPECT_EQ(crc32_of(0, "123456789", 9), 0xCBF43926u);  // the standard check value
}

TEST(ReadersCrc32, AllZeroAndAllOnesBlocks) {
  for (char fill : {'\0', '\xff'}) {
    const std::string bytes(4096, fill);
    EXPECT_EQ(crc32_of(0, bytes.data(), bytes.size()), zlib_crc(0, bytes.data(), bytes.size()));
  }
}

}  // namespace
}  // namespace pt2lint
