// Mutations of issue 24's classes, for the reader fuzzers' custom mutators: a JSON key
// written twice in one object, and an archive member name whose letters change case (PyTorch's
// zip lookup ignores case). Each works on the bytes and falls back to libFuzzer's mutator.
#pragma once

#include <cstddef>
#include <cstdint>
#include <cstring>
#include <random>
#include <string>
#include <vector>

extern "C" std::size_t LLVMFuzzerMutate(std::uint8_t* data, std::size_t size, std::size_t max_size);

namespace pt2lint::fuzz {

// After a random `{"key"`, inserts `"key": <value>, ` so that the object holds `key` twice.
inline std::size_t duplicate_json_key(std::uint8_t* data, std::size_t size, std::size_t max_size,
                                      unsigned seed) {
  std::mt19937 rng(seed);
  const std::string text(reinterpret_cast<const char*>(data), size);
  std::vector<std::size_t> objects;
  for (std::size_t at = text.find("{\""); at != std::string::npos; at = text.find("{\"", at + 1)) {
    objects.push_back(at);
  }
  if (objects.empty() || rng() % 4 == 0) return LLVMFuzzerMutate(data, size, max_size);
  const std::size_t open = objects[rng() % objects.size()];
  const std::size_t close = text.find('"', open + 2);
  if (close == std::string::npos) return LLVMFuzzerMutate(data, size, max_size);
  static const char* const kValues[] = {"null", "[]", "{}", "0", "\"x\"", "true"};
  const std::string insert = text.substr(open + 1, close - open) + ": " + kValues[rng() % 6] + ", ";
  if (size + insert.size() > max_size) return LLVMFuzzerMutate(data, size, max_size);
  const std::string out = text.substr(0, open + 1) + insert + text.substr(open + 1);
  std::memcpy(data, out.data(), out.size());
  return out.size();
}

// Flips the case of one letter of a member name in a central-directory record and, one time
// in two, in the local header it points at too.
inline std::size_t case_variant_member(std::uint8_t* data, std::size_t size, std::size_t max_size,
                                       unsigned seed) {
  std::mt19937 rng(seed);
  std::vector<std::size_t> records;
  for (std::size_t i = 0; i + 46 <= size; ++i) {
    if (data[i] == 'P' && data[i + 1] == 'K' && data[i + 2] == 1 && data[i + 3] == 2) records.push_back(i);
  }
  if (records.empty() || rng() % 4 == 0) return LLVMFuzzerMutate(data, size, max_size);
  const std::size_t at = records[rng() % records.size()];
  const std::size_t name_length = data[at + 28] | (data[at + 29] << 8);
  const std::size_t local = data[at + 42] | (data[at + 43] << 8) | (data[at + 44] << 16) |
                            (static_cast<std::size_t>(data[at + 45]) << 24);
  if (name_length == 0 || at + 46 + name_length > size) return size;
  const std::size_t letter = rng() % name_length;
  const auto flip = [](std::uint8_t& c) {
    if ((c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z')) c ^= 0x20;
  };
  flip(data[at + 46 + letter]);
  if (rng() % 2 == 0 && local + 30 + name_length <= size) flip(data[local + 30 + letter]);
  return size;
}

}  // namespace pt2lint::fuzz
