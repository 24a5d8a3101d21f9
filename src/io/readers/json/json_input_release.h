// Gives back the memory of the input the JSON reader has walked past (docs/performance.md,
// "Memory"). simdjson's On-Demand parser needs the whole document and its structural index
// (4 bytes per token) resident before the walk starts; the walk then only moves forward,
// copying what it keeps into the IR. Without this, a 143 MB program JSON, its index and
// the finished IR are all resident at the end of the walk (4.6x the JSON at peak); with
// it, pages the walk has left behind are handed back (MADV_DONTNEED) as the IR grows.
//
// Safe because nothing reads behind the walk: the walker keeps no view into the input
// except the current object key (a kKey step) and rewinds only inside the current
// object, and a released page reads as zeros instead of faulting. The margin keeps well
// clear of the current element. Internal to src/io/readers/json_*.
#pragma once

#include <atomic>
#include <cstddef>
#include <cstdint>

#include "io/readers/padded_bytes.h"

namespace pt2lint {

// What the caller of JsonToProto::read lets the walk discard of its input buffer.
struct InputDiscard {
  // The input itself; read() releases its pages behind the walk.
  PaddedBytes* bytes = nullptr;
  // Bytes below this offset are read by nobody else (e.g. a CRC on another thread);
  // nullptr: by nobody.
  const std::atomic<std::size_t>* others_done = nullptr;
};

namespace json_reader {

// Where another thread reads the input while the walk holding this goes on below it
// (json_walker_beside.cc): at and past `offset`, and, in the structural index, at and past
// `token`. Either may be raised while the walk reads, each on its own (a walk that sees a
// newer one and an older other is only more careful). Null `token`: no bound in the index.
struct InputHold {
  std::atomic<std::size_t> offset{0};
  std::atomic<const std::uint32_t*> token{nullptr};
};

class InputRelease {
 public:
  // `index`/`tokens`: the parser's structural index for `json` (offsets into it, ascending).
  InputRelease(const char* json, std::size_t json_size, const std::uint32_t* index,
               std::size_t tokens, InputDiscard discard)
      : json_(json), json_size_(json_size), index_(index), tokens_(tokens), discard_(discard) {}

  // The walk is at `position` (a pointer into the input): once it has moved far enough,
  // releases what lies well behind it. Cheap when it has not.
  void passed(const char* position) {
    // Keys with escapes live in simdjson's string buffer, not the input: ignored.
    if (position < json_ || position - json_ < next_check_ ||
        static_cast<std::size_t>(position - json_) > json_size_) {
      return;
    }
    release_before(static_cast<std::size_t>(position - json_));
  }

  // Nothing `hold` covers is given back, until hold_from(nullptr).
  void hold_from(const InputHold* hold) { hold_ = hold; }

  // For a walk that starts at token `at` of the index, input offset `offset` (a second
  // thread's): what lies below belongs to another walk, which gives it back itself.
  void start_at(const std::uint32_t* at, std::size_t offset);

  // The walk jumps from token `from` (input offset `from_offset`) to token `to` (`to_offset`):
  // another walk read what lies between and gave it back behind itself. The offsets are the
  // caller's: an entry of the index there may be given back already.
  void jumped(const std::uint32_t* from, std::size_t from_offset, const std::uint32_t* to,
              std::size_t to_offset);

 private:
  // Gives back what lies well behind `offset`, searching the index below `index_limit` only:
  // past a hold, another walk may have given entries back, which then read as zeros.
  void release_before(std::size_t offset, const std::uint32_t* index_limit = nullptr);

  const char* json_;
  std::size_t json_size_;
  const std::uint32_t* index_;
  std::size_t tokens_;
  InputDiscard discard_;
  const InputHold* hold_ = nullptr;
  std::ptrdiff_t next_check_ = kStep;
  std::size_t json_released_ = 0;    // bytes of the input given back
  std::size_t tokens_released_ = 0;  // entries of the index given back

  // 1 MB: a program of a few MB gives back its input too (kv_nested_256l's 8.6 MB), and a
  // large one's peak at the end of the walk carries at most ~2 MB of input and index. The
  // cost is one binary search and two madvise calls per step (~140 at 143 MB).
  static constexpr std::ptrdiff_t kStep = std::ptrdiff_t{1} << 20;
  static constexpr std::size_t kMargin = std::size_t{1} << 20;
};

}  // namespace json_reader
}  // namespace pt2lint
