// Byte scanning for the JSON reader's hot paths (json_walker*.cc): a word at a time over
// the padded input, for the end of a key or string and for escapes, without a library call.
#pragma once

#include <cstddef>
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

// ---- Exact scanners of the tiny objects a program repeats by the ten thousand, for the fast
// paths (json_walker.h), which then let simdjson skip the value unread. Each accepts only a
// strict well-formed spelling and returns the byte after it, or null for anything else, which
// the caller reads through simdjson as before. They stop at the first byte that does not
// fit, so they never read past the input's zeroed padding.

inline const char* skip_space(const char* p) {
  while (*p == ' ' || *p == '\n' || *p == '\r' || *p == '\t') ++p;
  return p;
}

// A JSON integer of at most 18 digits, which always fits in 64 bits, read as simdjson's
// get_int64() would; null for a leading zero, a fraction, an exponent or more digits.
inline const char* scan_int64(const char* p, std::int64_t& out) {
  const bool negative = *p == '-';
  if (negative) ++p;
  const char* digits = p;
  std::uint64_t x = 0;
  while (*p >= '0' && *p <= '9' && p - digits <= 18) {
    x = x * 10 + static_cast<std::uint64_t>(*p - '0');
    ++p;
  }
  const auto n = p - digits;
  if (n == 0 || n > 18 || (n > 1 && *digits == '0') || *p == '.' || *p == 'e' || *p == 'E' ||
      (*p >= '0' && *p <= '9')) {
    return nullptr;
  }
  out = negative ? -static_cast<std::int64_t>(x) : static_cast<std::int64_t>(x);
  return p;
}

// `"key"` followed by ':', for a key of 15 bytes at most; p at the opening quote. The padding
// after the input is at least 16 bytes, so the comparison stays inside the buffer.
template <std::size_t N>
inline const char* scan_key(const char* p, const char (&quoted)[N]) {
  static_assert(N - 1 <= 16, "a longer key would read past the padding");
  if (std::memcmp(p, quoted, N - 1) != 0) return nullptr;
  p = skip_space(p + N - 1);
  return *p == ':' ? skip_space(p + 1) : nullptr;
}

// {"as_int": n}
inline const char* scan_as_int_object(const char* p, std::int64_t& out) {
  if (*p != '{') return nullptr;
  p = scan_key(skip_space(p + 1), "\"as_int\"");
  if (p == nullptr || (p = scan_int64(p, out)) == nullptr) return nullptr;
  p = skip_space(p);
  return *p == '}' ? p + 1 : nullptr;
}

// {"name": "text"} where the text has no escape and is at most `limit` bytes; `limit` the
// end of the input, past which a quote is not looked for.
inline const char* scan_name_object(const char* p, const char* limit, std::size_t max_bytes,
                                    std::string_view& name) {
  if (*p != '{') return nullptr;
  p = scan_key(skip_space(p + 1), "\"name\"");
  if (p == nullptr || *p != '"') return nullptr;
  const char* begin = p + 1;
  const char* end = find_quote_or_backslash(begin, limit);
  if (end >= limit || *end != '"' || static_cast<std::size_t>(end - begin) + 2 > max_bytes) {
    return nullptr;
  }
  name = std::string_view(begin, static_cast<std::size_t>(end - begin));
  p = skip_space(end + 1);
  return *p == '}' ? p + 1 : nullptr;
}

// The size of the JSON object at `p` (its '{'), through the matching '}', counting strings
// and their escapes; 0 when it does not end within `max_bytes` or before `end`. Meant for
// text a reader has already read as valid JSON: it checks nothing else.
inline std::size_t object_text_size(const char* p, const char* end, std::size_t max_bytes) {
  if (p >= end || *p != '{') return 0;
  const char* limit = end - p > static_cast<std::ptrdiff_t>(max_bytes) ? p + max_bytes : end;
  std::size_t depth = 0;
  for (const char* q = p; q < limit; ++q) {
    switch (*q) {
      case '{': case '[': ++depth; break;
      case '}': case ']':
        if (--depth == 0) return static_cast<std::size_t>(q + 1 - p);
        break;
      case '"':
        for (++q;; q += 2) {
          q = find_quote_or_backslash(q, limit);
          if (q >= limit) return 0;
          if (*q == '"') break;
        }
        break;
      default: break;
    }
  }
  return 0;
}

inline std::string_view trim(std::string_view s) {
  while (!s.empty() && (s.back() == ' ' || s.back() == '\n' || s.back() == '\r' ||
                        s.back() == '\t' || s.back() == ',' || s.back() == ':')) {
    s.remove_suffix(1);
  }
  return s;
}

}  // namespace pt2lint::json_reader
