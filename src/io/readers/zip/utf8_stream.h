// UTF-8 validation of a member streamed in chunks (a large extra/ file, which load_pt2 decodes
// as UTF-8): a character split between two chunks is carried over, so the answer is the one
// simdjson::validate_utf8 gives for the whole, in O(1) memory.
#pragma once

#include <simdjson.h>

#include <cstddef>
#include <string>
#include <string_view>

namespace pt2lint {

class Utf8Stream {
 public:
  // Adds the next chunk; false (stop) once the text is known not to be UTF-8.
  bool add(std::string_view chunk) {
    if (!valid_) return false;
    std::size_t at = 0;
    // Complete the character the last chunk ended inside of.
    while (!carry_.empty() && at < chunk.size() && carry_.size() < sequence_length(carry_[0])) {
      carry_ += chunk[at++];
    }
    if (!carry_.empty() && carry_.size() == sequence_length(carry_[0])) {
      valid_ = simdjson::validate_utf8(carry_.data(), carry_.size());
      carry_.clear();
    }
    if (!valid_ || at == chunk.size()) return valid_;
    // Hold back a character the chunk ends inside of.
    std::size_t end = chunk.size();
    for (std::size_t back = 1; back <= 3 && back <= end - at; ++back) {
      const auto c = static_cast<unsigned char>(chunk[end - back]);
      if ((c & 0xC0) == 0x80) continue;  // a continuation byte: look further back
      if (sequence_length(static_cast<char>(c)) > back) end -= back;
      break;
    }
    valid_ = simdjson::validate_utf8(chunk.data() + at, end - at);
    carry_.assign(chunk.substr(end));
    return valid_;
  }
  // Whether the whole text was UTF-8: nothing may be left of a split character.
  bool finish() { return valid_ && carry_.empty(); }
  bool valid() const { return valid_; }

 private:
  // The length a lead byte announces (1 for a byte that leads nothing: the validator judges it).
  static std::size_t sequence_length(char lead) {
    const auto c = static_cast<unsigned char>(lead);
    return c >= 0xF0 ? 4 : c >= 0xE0 ? 3 : c >= 0xC0 ? 2 : 1;
  }

  std::string carry_;
  bool valid_ = true;
};

}  // namespace pt2lint
