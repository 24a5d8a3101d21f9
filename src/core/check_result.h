// What a check of one file gives: per program its summary (the effective mutation set, ops
// of unknown schema, root causes) and the file's findings. Plain data: the engine fills it,
// the diagnosis pass groups its findings, the reports render it.
#pragma once

#include <string>
#include <vector>

#include "core/finding.h"
#include "core/ir/state_kind.h"
#include "core/root_cause.h"

namespace pt2lint {

enum class LoadOutcome {
  kLoaded,      // programs (possibly none, with findings saying why) are in `programs`
  kSkipped,     // not a program (folder walk only); nothing to report
  kUnreadable,  // the path cannot be opened at all: the CLI exits 2 with `error`
};

// One state write of a program's effective mutation set (see docs/dataflow.md).
struct MutationSummary {
  std::string target;              // FQN, or the placeholder name for a user input
  StateKind kind = StateKind::kNone;  // buffer, parameter, user input, tensor constant
  std::vector<std::string> nodes;  // nodes that write it, in graph order
  std::vector<std::string> ops;    // possible_mutations only: each node's op, "mylib.f.default"

  // The other names of the written storage (tied weights, one tensor registered twice):
  // each sees the write (src/analysis/state/state_storage.h). Empty for most state.
  std::vector<std::string> aliases;
  // mutations only: whether the program reads the state's old value
  // (src/analysis/state/initial_state.h): "depends", "overwritten", "undecided".
  std::string initial_value;
};

struct ProgramSummary {
  std::string name;
  std::string dialect;         // "TRAINING", "ATEN", ... or "" when undeclared
  std::string schema_version;  // "8.17"
  std::string layout;          // "pt2", "legacy", "json", "textproto"
  bool structure_sound = true; // false: the dataflow rules were skipped
  std::vector<MutationSummary> mutations;
  // Node targets with no operator schema (custom ops, `_operator.*`, higher-order ops):
  // the dataflow rules treat them conservatively; `--verbose` lists them.
  std::vector<std::string> unknown_ops;
  // State passed to an op whose schema is unknown, in a TRAINING program: it may be written
  // (`possible_mutations` in JSON, "may be written by" in --show-mutations).
  std::vector<MutationSummary> possible_mutations;
  // Facts the analyses could not decide, each with its reason (the range of a cache write at
  // tensor positions, ...): never a finding; `--verbose` lists them.
  std::vector<std::string> undecided;
  // What the diagnosis pass found behind the program's errors (empty for a clean program).
  std::vector<RootCause> root_causes;
};

struct FileResult {
  std::string path;
  LoadOutcome outcome = LoadOutcome::kLoaded;
  std::string error;  // for kUnreadable
  std::vector<ProgramSummary> programs;
  std::vector<Finding> findings;
};

}  // namespace pt2lint
