// Entry point of the readers: turns one file on disk into IR programs, reporting every
// problem with the file itself (malformed-program, unsafe-archive-member,
// unsupported-schema-version) to the sink instead of failing.
#pragma once

#include <cstdint>
#include <filesystem>
#include <memory>
#include <string>
#include <vector>

#include <google/protobuf/arena.h>

#include "program.pb.h"
#include "core/check_result.h"
#include "core/diagnostic_sink.h"
#include "io/readers/load_options.h"

namespace pt2lint {

struct LoadedFile {
  std::vector<ir::Program> programs;
  std::string error;  // set for kUnreadable: "cannot open|read 'PATH': why", naming the file
};

// The same programs and findings as LoadedFile, with the IR on an arena that `arena` owns:
// for callers that only read the programs and drop them together (Engine::check_file).
// The programs live as long as the arena; they cannot be moved out.
struct ArenaLoadedFile {
  std::unique_ptr<google::protobuf::Arena> arena;
  std::vector<ir::Program*> programs;
  std::string error;  // set for kUnreadable: "cannot open|read 'PATH': why", naming the file
};

LoadOutcome load_file(const std::filesystem::path& path, const LoadOptions& options,
                      LoadedFile& out, DiagnosticSink& sink);
LoadOutcome load_file(const std::filesystem::path& path, const LoadOptions& options,
                      ArenaLoadedFile& out, DiagnosticSink& sink);

}  // namespace pt2lint
