// Byte scanning for the JSON reader's hot paths (json_walker*.cc): a word at a time over
// the padded input, for the end of a key or string and for escapes, without a library call.
#pragma once

#include <cstdint>
#include <cstring>
#include <string_view>

namespace pt2lint::json_reader {

// Eight bytes at a time: the mask has the high bit set in the lowest byte of `x` equal to
// `c` (bytes above a match may be flagged falsely, which only the first match ignores).
inline std::uint64_t byte_match(std::uint64_t x, unsigned char c) {
  constexpr std::uint64_t kOnes = 0x0101010101010101ULL;
  const std::uint64_t y = x ^ (kOnes * c);
  return (y - kOnes) & ~y & (kOnes * 0x80);
}

inline std::uint64_t load8(const char* p) {
  std::uint64_t x;
  std::memcpy(&x, p, 8);
  return x;
}

// The first '"' or '\\' in [p, limit), or limit. Reads whole 8-byte words only below limit.
inline const char* find_quote_or_backslash(const char* p, const char* limit) {
  while (limit - p >= 8) {
    const std::uint64_t x = load8(p);
    const std::uint64_t m = byte_match(x, '"') | byte_match(x, '\\');
    if (m != 0) return p + (__builtin_ctzll(m) >> 3);
    p += 8;
  }
  while (p < limit && *p != '"' && *p != '\\') ++p;
  return p;
}

// Whether `s` holds a backslash. `s` lies in a padded input buffer, but the scan still only
// reads whole words inside `s`.
inline bool has_backslash(std::string_view s) {
  const char* p = s.data();
  const char* limit = p + s.size();
  while (limit - p >= 8) {
    if (byte_match(load8(p), '\\') != 0) return true;
    p += 8;
  }
  for (; p < limit; ++p) {
    if (*p == '\\') return true;
  }
  return false;
}

inline std::string_view trim(std::string_view s) {
  while (!s.empty() && (s.back() == ' ' || s.back() == '\n' || s.back() == '\r' ||
                        s.back() == '\t' || s.back() == ',' || s.back() == ':')) {
    s.remove_suffix(1);
  }
  return s;
}

}  // namespace pt2lint::json_reader
