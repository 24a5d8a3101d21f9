// libFuzzer target: arbitrary bytes through the reader for textproto ProgramSets.
#include "tests/fuzz/fuzz_load.h"

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) {
  return pt2lint::fuzz_load(data, size, "input.textproto");
}
