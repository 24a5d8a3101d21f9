// `pt2lint check` as a library call: expand the paths, pick each file's rules, check the
// files in parallel and apply the baseline. It prints nothing; the caller renders the report
// (src/reports) and decides the exit code.
#pragma once

#include <istream>
#include <optional>
#include <string>
#include <vector>

#include "core/rule_registry.h"
#include "engine/engine.h"
#include "engine/file_discovery.h"
#include "engine/parallel_check.h"
#include "engine/rule_selection.h"
#include "engine/run_report.h"

namespace pt2lint {

struct RunOptions {
  // Files or folders (walked recursively). "-" stands for `standard_input`, at most once.
  std::vector<std::string> paths;
  std::istream* standard_input = nullptr;  // what "-" reads; nullptr: "-" is a usage error
  std::string stdin_filename;  // the name "-" goes by in findings and config lookup ("<stdin>")
  RuleSources rules;           // config, --select/--ignore/--extend-select, --op-schemas
  bool unknown_ops_parameters = false;
  unsigned jobs = 0;           // 0: one thread per core
  Shard shard;                 // --shard I/N; the default checks everything
  std::string baseline;        // --baseline FILE: its findings are reported as baselined
                               // ("": the config's `baseline`, if any)
  // Folder walks: --exclude replaces the config's `exclude` (and the defaults), --extend-exclude
  // adds to the config's; --no-respect-gitignore walks into what .gitignore hides.
  std::optional<std::vector<std::string>> exclude;
  std::vector<std::string> extend_exclude;
  bool no_respect_gitignore = false;
  bool update_baseline = false;  // first write every finding of this run to `baseline`
  // --verify-data: read every member torch.export.load reads whole and check the CRC-32 of
  // every weight (LoadOptions::verify_data).
  bool verify_data = false;
  // --time-budget: CPU seconds one file's check may take (0: none).
  double max_file_cpu_seconds = 60.0;
  // The caller exits right after rendering: the IR of a lone file is left to the OS, which
  // reclaims it faster than the arena frees it (IrDisposal::kLeaveToExit). Off for callers
  // that go on running.
  bool exit_after_run = false;
  // Called with each file's IR before it is dropped (the pictures of html and markdown), on
  // the worker threads.
  CheckedFileObserver observer;
  ProgressCallback progress;   // after each file, one call at a time
};

RunReport check_paths(const RuleRegistry& registry, const RunOptions& options);

}  // namespace pt2lint
