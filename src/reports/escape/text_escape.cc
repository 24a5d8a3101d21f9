#include "reports/escape/text_escape.h"

#include <fmt/format.h>

namespace pt2lint {
namespace {

// The length of the well-formed UTF-8 sequence at text[i] and its code point, or 0 when the
// bytes there are not one (an overlong form, a surrogate, a stray or cut continuation byte).
std::size_t utf8_sequence(std::string_view text, std::size_t i, char32_t& code_point) {
  const auto byte = [&](std::size_t k) { return static_cast<unsigned char>(text[k]); };
  const unsigned char lead = byte(i);
  std::size_t length = 0;
  char32_t min = 0;
  if (lead >= 0xC2 && lead <= 0xDF) {
    length = 2, code_point = lead & 0x1F, min = 0x80;
  } else if (lead >= 0xE0 && lead <= 0xEF) {
    length = 3, code_point = lead & 0x0F, min = 0x800;
  } else if (lead >= 0xF0 && lead <= 0xF4) {
    length = 4, code_point = lead & 0x07, min = 0x10000;
  } else {
    return 0;
  }
  if (i + length > text.size()) return 0;
  for (std::size_t k = 1; k < length; ++k) {
    if ((byte(i + k) & 0xC0) != 0x80) return 0;
    code_point = (code_point << 6) | (byte(i + k) & 0x3F);
  }
  if (code_point < min || code_point > 0x10FFFF ||
      (code_point >= 0xD800 && code_point <= 0xDFFF)) {
    return 0;
  }
  return length;
}

bool is_control(char32_t c) {
  return c < 0x20 || c == 0x7F || (c >= 0x80 && c <= 0x9F) || c == 0x2028 || c == 0x2029;
}

// Whether `text` needs inert_text at all: the common case costs one scan, no copy.
bool is_inert_text(std::string_view text) {
  for (std::size_t i = 0; i < text.size();) {
    const auto c = static_cast<unsigned char>(text[i]);
    if (c < 0x80) {
      if (c < 0x20 || c == 0x7F) return false;
      ++i;
      continue;
    }
    char32_t code_point = 0;
    const std::size_t length = utf8_sequence(text, i, code_point);
    if (length == 0 || is_control(code_point)) return false;
    i += length;
  }
  return true;
}

}  // namespace

std::string inert_text(std::string_view text, Newlines newlines) {
  if (is_inert_text(text)) return std::string(text);
  std::string out;
  out.reserve(text.size() + 16);
  for (std::size_t i = 0; i < text.size();) {
    const auto c = static_cast<unsigned char>(text[i]);
    if (c < 0x80) {
      if (c >= 0x20 && c != 0x7F) {
        out += static_cast<char>(c);
      } else if (c == '\n') {
        out += newlines == Newlines::kKeep ? "\n" : "\\n";
      } else if (c == '\r') {
        out += "\\r";
      } else if (c == '\t') {
        out += "\\t";
      } else {
        out += fmt::format("\\x{:02x}", c);
      }
      ++i;
      continue;
    }
    char32_t code_point = 0;
    const std::size_t length = utf8_sequence(text, i, code_point);
    if (length == 0) {
      out += fmt::format("\\x{:02x}", c);
      ++i;
    } else if (is_control(code_point)) {
      out += fmt::format("\\u{:04x}", static_cast<std::uint32_t>(code_point));
      i += length;
    } else {
      out.append(text.substr(i, length));
      i += length;
    }
  }
  return out;
}

std::string inert_line_start(std::string_view path) {
  std::string out = inert_text(path);
  if (!out.empty() && out.front() == ':') out.insert(0, "./");
  return out;
}

}  // namespace pt2lint
