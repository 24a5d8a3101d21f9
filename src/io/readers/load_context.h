// What every loader of one file shares: the options, the file's reporter, and one JSON
// reader whose parser buffers and schema tables are reused across the file's documents.
#pragma once

#include "io/readers/json/json_to_proto.h"
#include "io/readers/load_options.h"
#include "io/readers/load_reporter.h"

namespace pt2lint {

struct LoadContext {
  const LoadOptions& options;
  LoadReporter& reporter;
  JsonToProto& json;
};

// The name a program gets when its container does not name it.
inline constexpr const char* kDefaultProgramName = "model";

}  // namespace pt2lint
