// Runs the rules over every program of a file: load, index, structural rules, then the
// dataflow rules on programs whose structure is sound.
#pragma once

#include <filesystem>
#include <span>
#include <functional>
#include <string>
#include <vector>

#include "frontends/load_file.h"
#include "verifier/diagnosis/root_cause.h"
#include "verifier/finding.h"
#include "verifier/program_index.h"
#include "verifier/rule_filter.h"
#include "verifier/rule_registry.h"

namespace pt2lint {

class ProgramIndex;

// One state write of a program's effective mutation set (see docs/dataflow.md).
struct MutationSummary {
  std::string target;              // FQN, or the placeholder name for a user input
  std::string kind;                // "buffer", "parameter", "user_input", "tensor_constant"
  std::vector<std::string> nodes;  // nodes that write it, in graph order
  std::vector<std::string> ops;    // possible_mutations only: each node's op, "mylib.f.default"

  // The other names of the written storage (tied weights, one tensor registered twice):
  // each sees the write (verifier/state/state_storage.h). Empty for most state.
  std::vector<std::string> aliases;
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

// What becomes of a file's IR when its check ends.
enum class IrDisposal {
  kFree,
  // Left to the OS, which reclaims it at exit faster than the arena frees ~100,000 strings
  // one by one (~2 ms for kv_nested_256l): for a run's only file. Sanitizer builds still free.
  kLeaveToExit,
};

// Called once a file's programs are checked, while their IR is still alive: for reports that
// draw from the graph (the pictures of the html and markdown formats, `pt2lint graph`).
using CheckedFileObserver =
    std::function<void(const std::vector<ir::Program*>& programs, FileResult& result)>;

class Engine {
 public:
  Engine(const RuleRegistry& registry, RuleFilter filter, OpKnowledge ops = {})
      : registry_(registry), filter_(std::move(filter)), ops_(ops) {}

  FileResult check_file(const std::filesystem::path& path, const LoadOptions& options,
                        IrDisposal disposal = IrDisposal::kFree,
                        const CheckedFileObserver& observer = {}) const;
  // Checks one program already in memory; findings go to `sink` unfiltered.
  // `archive` lists every program of the file, for rules about state they share.
  ProgramSummary check_program(const ir::Program& program, DiagnosticSink& sink,
                               bool loaded_cleanly = true,
                               std::span<const ir::Program* const> archive = {}) const;

 private:
  const RuleRegistry& registry_;
  RuleFilter filter_;
  OpKnowledge ops_;
};

std::string_view layout_name(ir::ArchiveLayout layout);

}  // namespace pt2lint
