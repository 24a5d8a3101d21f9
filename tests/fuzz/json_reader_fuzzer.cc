// libFuzzer target: arbitrary bytes through the reader for program JSON documents.
#include "tests/fuzz/fuzz_load.h"
#include "tests/fuzz/hostile_mutators.h"

// Repeated keys (issue 24): json.loads keeps the last copy, so pt2lint must refuse them.
extern "C" size_t LLVMFuzzerCustomMutator(uint8_t* data, size_t size, size_t max_size, unsigned int seed) {
  return pt2lint::fuzz::duplicate_json_key(data, size, max_size, seed);
}

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) {
  return pt2lint::fuzz_load(data, size, "input.json");
}
