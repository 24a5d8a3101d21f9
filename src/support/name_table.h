// Interns the names of one program into dense ids 0..size()-1, so that everything known about
// a name can live in vectors indexed by id. It borrows the strings (they stay in the IR).
// Open addressing with linear probing in one flat array: std::unordered_map allocated one
// node per name and chased a pointer per probe, which made building the ProgramIndex of a
// 5,000-node program cost more than all structural rules together.
#pragma once

#include <cstdint>
#include <cstring>
#include <string_view>
#include <vector>

namespace pt2lint {

class NameTable {
 public:
  static constexpr int kAbsent = -1;

  // Sizes the table for about `names` distinct names; it still grows past that.
  void reserve(std::size_t names) {
    names_.reserve(names);
    std::size_t capacity = 16;
    while (capacity < names * 2) capacity *= 2;
    if (capacity > slots_.size()) rehash(capacity);
  }

  // The id of `name`, adding it when new.
  int intern(std::string_view name) {
    return intern(name, [](std::string_view borrowed) { return borrowed; });
  }

  // The same, for a `name` that does not outlive the call: a new one is borrowed from
  // `keep(name)`, which returns a lasting copy of it.
  template <typename Keep>
  int intern(std::string_view name, Keep&& keep) {
    return intern_hashed(name, hash(name), keep);
  }
  // The same with `h` == hash(name), computed beforehand (on another thread).
  int intern_hashed(std::string_view name, std::uint64_t h) {
    return intern_hashed(name, h, [](std::string_view borrowed) { return borrowed; });
  }
  template <typename Keep>
  int intern_hashed(std::string_view name, std::uint64_t h, Keep&& keep) {
    if (slots_.empty() || (names_.size() + 1) * 2 > slots_.size()) {
      rehash(slots_.empty() ? 16 : slots_.size() * 2);
    }
    const auto tag = static_cast<std::uint32_t>(h);
    for (std::size_t i = tag & mask_;; i = (i + 1) & mask_) {
      Slot& slot = slots_[i];
      if (slot.id == kAbsent) {
        slot = {tag, static_cast<std::int32_t>(names_.size())};
        names_.push_back(keep(name));
        return slot.id;
      }
      if (slot.tag == tag && names_[static_cast<std::size_t>(slot.id)] == name) return slot.id;
    }
  }

  // The id of `name`, or kAbsent.
  int find(std::string_view name) const {
    if (slots_.empty()) return kAbsent;
    const auto tag = static_cast<std::uint32_t>(hash(name));
    for (std::size_t i = tag & mask_;; i = (i + 1) & mask_) {
      const Slot& slot = slots_[i];
      if (slot.id == kAbsent) return kAbsent;
      if (slot.tag == tag && names_[static_cast<std::size_t>(slot.id)] == name) return slot.id;
    }
  }

  std::size_t size() const { return names_.size(); }
  std::string_view name(int id) const { return names_[static_cast<std::size_t>(id)]; }

  // Eight bytes at a time with a multiply-xorshift mix per word: value names are short
  // ASCII ("getitem_1234", "p_layers_3_self_attn_q_proj_weight") that often differ only
  // in their last characters, so every byte must reach the low bits used for the slot.
  // Names of kLongName bytes or more go through long_prefix_hash() first. Public for the
  // tests of its spread.
  static std::uint64_t hash(std::string_view s) {
    std::uint64_t h = 0x9E3779B97F4A7C15ull ^ s.size();
    const char* p = s.data();
    std::size_t n = s.size();
    if (n >= kLongName) {
      h = long_prefix_hash(p, n, h);
      p += n & ~std::size_t{31};
      n &= 31;
    }
    for (; n >= 8; p += 8, n -= 8) {
      std::uint64_t word;
      std::memcpy(&word, p, 8);
      h = (h ^ word) * 0xBF58476D1CE4E5B9ull;
      h ^= h >> 31;
    }
    h = (h ^ tail_word(p, n)) * 0x94D049BB133111EBull;
    h ^= h >> 29;
    h *= 0xBF58476D1CE4E5B9ull;
    return h ^ (h >> 32);
  }

 private:
  struct Slot {
    // The low half of the hash. The slot index is its low bits (ids are int32, so a table
    // never has more than 2^32 slots): a rehash reads no name. Its bits above the index make
    // most mismatches skip the string compare.
    std::uint32_t tag = 0;
    std::int32_t id = kAbsent;
  };

  // The last n < 8 bytes as one word, every byte in it, without a variable-length copy
  // (a library call per name): two overlapping 4-byte reads, or the first, middle and last
  // byte of 1 to 3. With the length mixed in first, equal words mean equal bytes.
  static std::uint64_t tail_word(const char* p, std::size_t n) {
    if (n >= 4) {
      std::uint32_t first, last;
      std::memcpy(&first, p, 4);
      std::memcpy(&last, p + n - 4, 4);
      return (std::uint64_t{first} << 32) | last;
    }
    if (n == 0) return 0;
    const auto byte = [p](std::size_t i) { return std::uint64_t{static_cast<unsigned char>(p[i])}; };
    return byte(0) << 16 | byte(n >> 1) << 8 | byte(n - 1);
  }

  // Names this long (node metadata: stack traces of 1-2 KB, hashed once a node) go 32 bytes
  // at a time through four independent multiply chains: one chain waits ~6 cycles a word on
  // the multiply before it, four keep the multiplier busy (3x faster on a 1.2 KB stack
  // trace). The mix per word is hash()'s.
  static constexpr std::size_t kLongName = 64;

  // The hash of the whole 32-byte blocks of p[0, n), n >= 32, continuing from `h`. Each
  // lane is avalanched before it is folded in: a multiply carries a byte's change only
  // upwards, so two lanes changed alike would otherwise cancel in the fold.
  static std::uint64_t long_prefix_hash(const char* p, std::size_t n, std::uint64_t h) {
    std::uint64_t a = h, b = h ^ 0x6A09E667F3BCC908ull, c = h ^ 0xBB67AE8584CAA73Bull,
                  d = h ^ 0x3C6EF372FE94F82Bull;
    const auto step = [](std::uint64_t lane, const char* at) {
      std::uint64_t word;
      std::memcpy(&word, at, 8);
      lane = (lane ^ word) * 0xBF58476D1CE4E5B9ull;
      return lane ^ (lane >> 31);
    };
    for (; n >= 32; p += 32, n -= 32) {
      a = step(a, p);
      b = step(b, p + 8);
      c = step(c, p + 16);
      d = step(d, p + 24);
    }
    const auto avalanche = [](std::uint64_t x) {  // murmur3's 64-bit finalizer
      x = (x ^ (x >> 33)) * 0xFF51AFD7ED558CCDull;
      x = (x ^ (x >> 33)) * 0xC4CEB9FE1A85EC53ull;
      return x ^ (x >> 33);
    };
    for (const std::uint64_t lane : {a, b, c, d}) {
      h = (h ^ avalanche(lane)) * 0x94D049BB133111EBull;
      h ^= h >> 29;
    }
    return h;
  }

  void rehash(std::size_t capacity) {
    std::vector<Slot> old;
    old.swap(slots_);
    slots_.assign(capacity, Slot{});
    mask_ = capacity - 1;
    for (const Slot& slot : old) {
      if (slot.id == kAbsent) continue;
      std::size_t i = slot.tag & mask_;
      while (slots_[i].id != kAbsent) i = (i + 1) & mask_;
      slots_[i] = slot;
    }
  }

  std::vector<std::string_view> names_;
  std::vector<Slot> slots_;
  std::size_t mask_ = 0;
};

}  // namespace pt2lint
