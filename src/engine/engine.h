// Runs the rules over every program of a file: load, index, structural rules, then the
// dataflow rules on programs whose structure is sound.
#pragma once

#include <filesystem>
#include <span>
#include <functional>
#include <string>
#include <vector>

#include "analysis/program_index.h"
#include "core/check_result.h"
#include "core/finding.h"
#include "core/rule_filter.h"
#include "core/rule_registry.h"
#include "io/readers/load_file.h"

namespace pt2lint {

class ProgramIndex;
class CpuBudget;

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

// From this many top-level nodes a program's index and rules run on two threads. Once the
// second thread started on the other core at once (support/other_core_thread.h), two threads
// saved ~2 ms at 9,223 nodes (kv_nested_256l) and cost nothing measurable at ~2,300
// (kv_nested_64l); below this the rules take a few milliseconds in all (docs/performance.md,
// "new threads on their creator's core").
inline constexpr int kRulesOnTwoThreadsFrom = 4096;

class Engine {
 public:
  Engine(const RuleRegistry& registry, RuleFilter filter, OpKnowledge ops = {})
      : registry_(registry), filter_(std::move(filter)), ops_(ops) {}

  // Programs of at least `nodes` top-level nodes have each phase's rules run on two threads
  // (engine/task_batch.h); smaller ones on the calling thread, one by one. The default is
  // where a second thread starts to pay (docs/performance.md); tests set 0 or INT_MAX.
  void set_rules_on_two_threads_from(int nodes) { two_threads_from_ = nodes; }

  FileResult check_file(const std::filesystem::path& path, const LoadOptions& options,
                        IrDisposal disposal = IrDisposal::kFree,
                        const CheckedFileObserver& observer = {}) const;
  // Checks one program already in memory; findings go to `sink` unfiltered.
  // `archive` lists every program of the file, for rules about state they share.
  ProgramSummary check_program(const ir::Program& program, DiagnosticSink& sink,
                               bool loaded_cleanly = true,
                               std::span<const ir::Program* const> archive = {},
                               CpuBudget* budget = nullptr) const;

 private:
  const RuleRegistry& registry_;
  RuleFilter filter_;
  OpKnowledge ops_;
  int two_threads_from_ = kRulesOnTwoThreadsFrom;
};

}  // namespace pt2lint
