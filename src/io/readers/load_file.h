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

namespace pt2lint {

class RuleFilter;

struct LoadOptions {
  // True when the file was found by walking a folder: a .json file that is not an exported
  // program is then skipped silently instead of reported.
  bool found_by_folder_walk = false;
  // Bounds that keep hostile inputs cheap. A member or file beyond them is reported.
  std::uint64_t max_program_json_bytes = std::uint64_t{1} << 30;
  std::uint64_t max_config_json_bytes = std::uint64_t{64} << 20;
  std::uint32_t max_json_depth = 1024;
  std::uint64_t max_archive_members = 1'000'000;
  // The rules --select/--ignore leave on for this file. Findings of other rules still reach
  // the sink (a broken program stays broken) but do not count against the per-file cap, so
  // `--select PT103` is never crowded out by hundreds of hidden malformed-program findings.
  const RuleFilter* rule_filter = nullptr;
};

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
