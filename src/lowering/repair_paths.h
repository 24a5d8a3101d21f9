// `pt2lint fix` as a library call: for each file of the paths, the signature repairs the
// diagnosis proves (diagnosis/repair_program.h, per program), written through a staging file
// that is checked with every rule and renamed into place only when it is clean (docs/fix.md).
// It prints nothing and decides no exit code: the caller hears about each file as it is done
// (`on_file`) and prints, then maps the counts to an exit code (src/cli/fix_command.cc).
//
// It lives in lowering, not diagnosis, because the pipeline around the per-program repair
// reaches above diagnosis: it checks files with the engine, loads them with
// io/readers/loaded_programs.h, and writes and records renames with lowering's writer
// (lowered_output.h, rename_nested.h). lowering is the lowest layer that links all three.
#pragma once

#include <cstddef>
#include <functional>
#include <map>
#include <string>
#include <vector>

#include "io/readers/loaded_programs.h"
#include "core/finding.h"
#include "core/root_cause.h"
#include "core/rule_registry.h"

namespace pt2lint::lowering {

enum class FixOutcome { kClean, kRepaired, kNeedsUnsafe, kOutOfReach, kFailed };

// The causes and edits one program's repair applied.
struct ProgramFix {
  std::string program;
  std::vector<RootCause> causes;
};

// What became of one file. Refusals, in the order they are decided:
//   - the input cannot be opened: kFailed, `loaded.readable` false;
//   - check finds no error: kClean;
//   - the loader found it broken or empty: kOutOfReach, `loaded.usable()` false;
//   - otherwise `error` says why, once set, and `remaining` lists what a written repair
//     would still leave (kOutOfReach).
struct FileFix {
  std::string input;
  std::string output;  // where the repair goes ("" with --dry-run and no -o)
  FixOutcome outcome = FixOutcome::kFailed;
  LoadedPrograms loaded;               // as loaded; for the refusals above
  std::vector<Finding> errors_before;  // the error findings `check` reports on the input
  std::vector<ProgramFix> repaired;    // in program order, up to a refused program
  std::string error;                   // the message of a refusal or failure after loading
  std::vector<Finding> remaining;      // the repaired file's error findings, which stop the write
  std::size_t edits = 0;               // edits applied, over all programs
  std::string diff;                    // the unified diff of every program's signature
  bool kept_contract = false;          // --against: clean because it keeps ORIGINAL's contract
};

struct FixOptions {
  std::vector<std::string> inputs;  // files or folders (walked)
  std::string output;               // -o: one input file only
  bool in_place = false;            // each input is its own output
  bool dry_run = false;             // compute the repair and its diff; write nothing
  bool unsafe_fixes = false;        // also apply edits decided only by name similarity
  // --against ORIGINAL: each file is a lowering or rewrite of ORIGINAL and must keep its mutation
  // contract: lost write-backs whose values the file still computes come back, and the result
  // must pass `diff ORIGINAL RESULT` (docs/fix.md, "fix --against").
  std::string against;
  std::function<void(const FileFix&)> on_file;  // after each file, in order
};

enum class FixStop {
  kDone,                // every file was tried
  kMissingPaths,        // `missing` paths do not exist: nothing was tried
  kOutputNeedsOneFile,  // -o with more than one file or a folder: nothing was tried
  kBadOriginal,         // --against names a file that is unreadable or not clean (`original_error`)
};

struct FixReport {
  FixStop stop = FixStop::kDone;
  std::vector<std::string> missing;
  std::string original_error;        // kBadOriginal: why
  std::map<FixOutcome, int> counts;  // files per outcome
  bool many = false;                 // more than one file, or a folder was walked
};

FixReport repair_paths(const RuleRegistry& registry, const FixOptions& options);

}  // namespace pt2lint::lowering
