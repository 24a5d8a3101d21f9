#include "support/printable.h"

#include <fmt/format.h>

namespace pt2lint {

std::string printable_excerpt(std::string_view bytes, std::size_t limit) {
  std::string out;
  for (std::size_t i = 0; i < bytes.size() && i < limit; ++i) {
    const auto c = static_cast<unsigned char>(bytes[i]);
    if (c < 0x20 || c >= 0x7f || c == '\\') {
      out += fmt::format("\\x{:02x}", c);
    } else {
      out += static_cast<char>(c);
    }
  }
  if (bytes.size() > limit) out += fmt::format("... ({} bytes)", bytes.size());
  return out;
}

}  // namespace pt2lint
