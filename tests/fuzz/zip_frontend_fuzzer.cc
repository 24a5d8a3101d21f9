// libFuzzer target: arbitrary bytes through the frontend for zip archives (both layouts). Any input must end
// in programs and/or findings; a crash, leak, hang or sanitizer report is a bug.
#include <cstddef>
#include <cstdint>
#include <string_view>

#include "frontends/load_bytes.h"

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) {
  pt2lint::LoadOptions options;
  // Small bounds keep each run fast; the logic they guard is the same at any size.
  options.max_program_json_bytes = 1 << 20;
  options.max_config_json_bytes = 1 << 20;
  options.max_json_depth = 256;
  options.max_archive_members = 4096;
  pt2lint::LoadedFile out;
  pt2lint::CollectingSink sink;
  pt2lint::load_bytes(std::string_view(reinterpret_cast<const char*>(data), size), "input.pt2",
                      options, out, sink);
  return 0;
}
