// In-memory twin of load_file, for fuzzers and tests: the same dispatch and the same
// findings, with `name` standing in for the path (its extension selects textproto).
#pragma once

#include <string_view>

#include "io/readers/load_file.h"

namespace pt2lint {

LoadOutcome load_bytes(std::string_view bytes, std::string_view name, const LoadOptions& options,
                       LoadedFile& out, DiagnosticSink& sink);

}  // namespace pt2lint
