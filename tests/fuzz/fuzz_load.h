// Shared body of the reader fuzzers: arbitrary bytes through load_bytes() under a file name
// that picks the reader. Any input must end in programs and/or findings; a crash, leak,
// hang or sanitizer report is a bug.
#pragma once

#include <cstddef>
#include <cstdint>
#include <string_view>

#include "io/readers/load_bytes.h"

namespace pt2lint {

inline int fuzz_load(const std::uint8_t* data, std::size_t size, std::string_view file_name) {
  LoadOptions options;
  // Small bounds keep each run fast; the logic they guard is the same at any size.
  options.max_program_json_bytes = 1 << 20;
  options.max_config_json_bytes = 1 << 20;
  options.max_json_depth = 256;
  options.max_archive_members = 4096;
  LoadedFile out;
  CollectingSink sink;
  load_bytes(std::string_view(reinterpret_cast<const char*>(data), size), file_name, options,
             out, sink);
  return 0;
}

}  // namespace pt2lint
