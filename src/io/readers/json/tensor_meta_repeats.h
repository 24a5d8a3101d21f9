// TensorMetas the walk has already read, by their JSON text. A model's layers repeat the same
// few shapes: kv_nested_256l's 9,222 tensor_values hold 18 distinct texts. The same bytes at
// the start of a value read to the same message, so a value whose input begins with a
// recorded text is copied from that text's message instead of being read again, and simdjson
// skips its tokens unread. Internal to src/io/readers/json_*.
//
// Why a copy is exact: a recorded text is a whole object the fast path read without a
// problem, from its '{' to the matching '}'. A value's first byte is never inside a string,
// so identical bytes make identical tokens, and the same reader at the same kind of
// position would read them to the same message with the same (no) findings. The caller
// looks up only where the fast path itself would run.
//
// An IR that is only read (`check`'s, on an arena) need not even copy: the value's field
// points at the first reading's message (Walker::share_tensor_meta), so 147k TensorMetas at
// 4,096 layers are a few dozen messages. Identical tokens are also as many: the iterator
// jumps the recorded count of them (simdjson_internals.h) instead of skipping one by one.
#pragma once

#include <cstddef>
#include <cstdint>
#include <cstring>
#include <memory>
#include <string>
#include <vector>

#include "io/readers/json/json_bytes.h"
#include "program.pb.h"

namespace pt2lint::json_reader {

class TensorMetaRepeats {
 public:
  // A text read before, with what was recorded of it.
  struct Repeat {
    std::uint64_t head;  // head_of() the text, for a text of kHeadBytes or more
    std::string text;  // a copy: the walk gives back the input it has passed
    const ir::TensorMeta* message;  // copy.get(), or the shared message
    std::unique_ptr<const ir::TensorMeta> copy;
    std::uint32_t tokens;  // simdjson's structural tokens in the text; 0 when not counted
  };

  // The recorded text that the input at `p` begins with, else null. `end` is the end of the
  // input (not of its padding); at least 64 bytes past it are readable.
  const Repeat* find_repeat(const char* p, const char* end) {
    if (entries_.empty() || !looking_) return nullptr;
    const std::uint64_t head = head_of(p);
    for (const Repeat& e : entries_) {
      if ((e.text.size() < kHeadBytes || e.head == head) &&
          static_cast<std::size_t>(end - p) >= e.text.size() &&
          std::memcmp(p, e.text.data(), e.text.size()) == 0) {
        ++hits_;
        return &e;
      }
    }
    // A program whose values rarely repeat stops paying for the look-up.
    if (++misses_ > kTrialMisses && misses_ > 4 * hits_) looking_ = false;
    return nullptr;
  }

  // The message of find_repeat(p, end), else null.
  const ir::TensorMeta* find(const char* p, const char* end) {
    const Repeat* repeat = find_repeat(p, end);
    return repeat == nullptr ? nullptr : repeat->message;
  }

  // Records `m`, read by the fast path from the object at `p`, while there is room: a copy
  // of it, or with `share`, `m` itself, which must then stay as it is while this lives.
  // `tokens` is the object's count of structural tokens, if known.
  void record(const char* p, const char* end, const ir::TensorMeta& m, bool share,
              std::uint32_t tokens = 0) {
    if (entries_.size() >= kMaxEntries || !looking_) return;
    const std::size_t size = object_text_size(p, end, kMaxTextBytes);
    if (size == 0) return;
    Repeat e{head_of(p), std::string(p, size), nullptr, nullptr, tokens};
    if (share) {
      e.message = &m;
    } else {
      e.copy = std::make_unique<ir::TensorMeta>(m);
      e.message = e.copy.get();
    }
    entries_.push_back(std::move(e));
  }

 private:
  static constexpr std::size_t kMaxEntries = 64;
  static constexpr std::size_t kMaxTextBytes = 2048;
  static constexpr std::size_t kTrialMisses = 256;
  static constexpr std::size_t kHeadBytes = 64;  // no more than the input's padding

  // A hash of the kHeadBytes at `p` (past the input's end, its zeroed padding): a text that
  // long is compared in full only with an input of the same head. A shorter one (torch
  // writes none: its TensorMeta has seven fields) is always compared.
  static std::uint64_t head_of(const char* p) {
    std::uint64_t h = 0;
    for (std::size_t i = 0; i < kHeadBytes; i += 8) h = (h ^ load8(p + i)) * 0x9E3779B97F4A7C15ULL;
    return h ^ (h >> 29);
  }

  std::vector<Repeat> entries_;
  std::size_t hits_ = 0;
  std::size_t misses_ = 0;
  bool looking_ = true;
};

}  // namespace pt2lint::json_reader
