// libFuzzer target: arbitrary bytes through the reader for zip archives (both layouts).
#include "tests/fuzz/fuzz_load.h"
#include "tests/fuzz/hostile_mutators.h"

// Member names that differ only in case (issue 24): PyTorch's lookup ignores case.
extern "C" size_t LLVMFuzzerCustomMutator(uint8_t* data, size_t size, size_t max_size, unsigned int seed) {
  return pt2lint::fuzz::case_variant_member(data, size, max_size, seed);
}

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) {
  return pt2lint::fuzz_load(data, size, "input.pt2");
}
