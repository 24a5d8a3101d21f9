#include "engine/engine.h"

#include <optional>
#include <system_error>

#include <fmt/format.h>

#include "analysis/dataflow/dataflow_summary.h"
#include "analysis/program_index.h"
#include "analysis/state/cache_ranges.h"
#include "core/rule_catalogue.h"
#include "diagnosis/group_findings.h"
#include "diagnosis/repair_plan.h"
#include "engine/task_batch.h"
#include "support/cpu_budget.h"
#include "support/hand_off.h"
#include "support/sanitizers.h"

namespace pt2lint {
namespace {

// Tracks whether a structural rule reported an error, before filters touch severities:
// soundness is a property of the program, not of the user's rule selection.
class StructureWatch final : public DiagnosticSink {
 public:
  explicit StructureWatch(DiagnosticSink& next) : next_(next) {}
  void report(Finding finding) override {
    if (finding.severity == Severity::kError) broken_ = true;
    next_.report(std::move(finding));
  }
  bool broken() const { return broken_; }

 private:
  DiagnosticSink& next_;
  bool broken_ = false;
};

// Where the findings of a structural rule the user turned off go: nowhere. Only whether it
// found an error counts, so that no dataflow advice is built on a structure it found unsound.
class DiscardingSink final : public DiagnosticSink {
 public:
  void report(Finding) override {}
};

// Completes findings that point at a node with what reports need from that node: its op
// (fingerprints) and its stack trace (source locations), so rules need not repeat it.
class NodeContextSink final : public DiagnosticSink {
 public:
  NodeContextSink(const ProgramIndex& index, DiagnosticSink& next) : index_(index), next_(next) {}
  void report(Finding finding) override {
    if (auto node = node_of(finding.location)) {
      if (finding.op.empty()) finding.op = index_.graph().nodes(*node).target();
      if (finding.stack_trace.empty())
        finding.stack_trace = std::string(index_.node_metadata(*node, "stack_trace"));
    }
    next_.report(std::move(finding));
  }

 private:
  // The node named by the finding, else the node that produces the value it names.
  std::optional<int> node_of(const Location& location) const {
    if (!location.node.empty()) return index_.node_by_name(location.node);
    if (location.value.empty()) return std::nullopt;
    auto definition = index_.definition(location.value);
    if (!definition || definition->node < 0) return std::nullopt;
    return definition->node;
  }


  const ProgramIndex& index_;
  DiagnosticSink& next_;
};

// The one finding of a file whose time budget ran out: what did not run, and what to do.
void report_budget_spent(const CpuBudget& budget, DiagnosticSink& sink) {
  emit(sink, kCheckTimeBudgetSpent, "",
       fmt::format("checking the file took more than its time budget of {:g} CPU seconds; pt2lint stopped "
                   "before {}, so what follows it was not checked and the file is not known to be clean",
                   budget.seconds(), budget.stopped_before()))
      .note("a real exported program is checked in well under a second (docs/performance.md); one that takes "
            "this long is pathological or built to exhaust the checker")
      .note("raise the budget with --time-budget SECONDS (0: none) to check it to the end");
}

// What the dataflow summaries add to a program's summary (dataflow_summary.h,
// cache_ranges.h), moved from where they were gathered.
void take_dataflow_facts(ProgramSummary& from, ProgramSummary& to) {
  to.mutations = std::move(from.mutations);
  to.unknown_ops = std::move(from.unknown_ops);
  to.possible_mutations = std::move(from.possible_mutations);
  to.undecided = std::move(from.undecided);
}

std::string_view layout_name(ir::ArchiveLayout layout) {
  switch (layout) {
    case ir::LAYOUT_PT2_ARCHIVE: return "pt2";
    case ir::LAYOUT_LEGACY_ZIP: return "legacy";
    case ir::LAYOUT_BARE_JSON: return "json";
    case ir::LAYOUT_TEXTPROTO: return "textproto";
    default: return "unknown";
  }
}

}  // namespace

ProgramSummary Engine::check_program(const ir::Program& program, DiagnosticSink& out,
                                     bool loaded_cleanly,
                                     std::span<const ir::Program* const> archive,
                                     CpuBudget* budget) const {
  // Spent: the rest is not checked, and the one check-time-budget-spent finding says so.
  const auto spent = [&](std::string_view where) { return budget != nullptr && budget->spent(where); };
  // A large program's rules run on two threads, a batch at a time; a small one's on this
  // thread, one by one, with the budget looked at before each. The second thread starts
  // now, so that its start-up overlaps the index's.
  std::optional<ServingThread> second;
  if (program.program().graph_module().graph().nodes_size() >= two_threads_from_) {
    try {
      second.emplace();
    } catch (const std::system_error&) {
      // No thread to be had: this one does it all.
    }
  }
  HandOff* const other = second ? &second->hand_off() : nullptr;
  const bool two_threads = other != nullptr;
  ProgramIndex index(program, other);
  index.set_op_knowledge(ops_);

  index.set_archive_programs(archive);
  NodeContextSink sink(index, out);
  ProgramSummary summary;
  summary.name = program.name();
  summary.dialect = std::string(dialect_name(index.dialect()));
  const ir::SchemaVersion& version = program.program().schema_version();
  summary.schema_version = fmt::format("{}.{}", version.major(), version.minor());
  summary.layout = std::string(layout_name(program.layout()));

  // The loader's one finding said why this program was not read; anything more would guess.
  if (program.not_checked()) {
    summary.structure_sound = false;
    return summary;
  }

  // A program its loader could not read fully (a PT101 error) has no structure to judge:
  // checking it would report the parts that were never read as missing (a truncated JSON
  // made every weight "unclaimed"). The loader's finding is the one root cause.
  if (!loaded_cleanly) {
    summary.structure_sound = false;
    return summary;
  }
  StructureWatch any_error(sink);
  // Through the base: a StructureWatch argument would pick the copy constructor.
  StructureWatch structural(static_cast<DiagnosticSink&>(any_error));
  DiscardingSink discarded;
  StructureWatch ignored_structural(discarded);
  const auto charge = [&](double other_cpu) {
    if (budget != nullptr) budget->charge(other_cpu);
  };
  const auto check_with = [&](const Rule& rule) {
    return [&index, &rule](DiagnosticSink& to) { rule.check(index, to); };
  };
  // On two threads, state-dict-mismatch, the longest structural rule at scale (~35 ms of
  // ~45 at 4,096 layers) and one the dataflow does not rely on (a team that ignores it keeps
  // its dataflow checks), runs beside the dataflow instead, whose findings and summaries are
  // dropped if it finds an error. The findings of the structural rules after it wait for
  // its own: the report keeps the catalogue's order.
  const bool defer_state_dict = two_threads && filter_.enabled(kStateDictMismatch.id);
  const Rule* state_dict = nullptr;
  CollectingSink after_state_dict;
  StructureWatch late_structural(after_state_dict);
  TaskBatch structural_phase;
  for (const auto& rule : registry_.rules()) {
    if (rule->info().phase != RulePhase::kStructural) continue;
    if ((!two_threads || structural_phase.empty()) && spent(rule->info().name)) break;
    if (filter_.enabled(rule->info().id)) {
      if (defer_state_dict && rule->info().id == kStateDictMismatch.id) {
        state_dict = rule.get();
        continue;
      }
      structural_phase.add(check_with(*rule), state_dict != nullptr ? late_structural : structural);
    } else if (rule->info().default_enabled && rule->info().id != kStateDictMismatch.id) {
      // Ignored (--ignore, per-file-ignores, a narrow --select): still judged for soundness.
      // The state dict is not the graph: a team that ignores it keeps its dataflow checks.
      structural_phase.add(check_with(*rule), ignored_structural);
    }
    if (!two_threads) structural_phase.run_and_clear(nullptr);
  }
  charge(structural_phase.run_and_clear(other));
  // A structure whose checks did not all run is not known to be sound.
  const bool graph_sound = !structural.broken() && !late_structural.broken() &&
                           !ignored_structural.broken() && !spent("the dataflow summary");
  ProgramSummary facts;  // the dataflow's, until the structure is known to be sound
  CollectingSink dataflow_findings;
  DiagnosticSink& dataflow_sink = state_dict != nullptr ? static_cast<DiagnosticSink&>(dataflow_findings) : any_error;
  TaskBatch dataflow_phase;
  CollectingSink state_dict_findings;
  StructureWatch state_dict_watch(state_dict_findings);
  if (state_dict != nullptr) dataflow_phase.add(check_with(*state_dict), state_dict_watch);
  if (graph_sound) {
    dataflow_phase.add([&](DiagnosticSink&) { dataflow::summarize_dataflow(index, facts); }, dataflow_sink);
    dataflow_phase.add([&](DiagnosticSink&) { summarize_cache_ranges(index, facts); }, dataflow_sink);
    if (!two_threads) dataflow_phase.run_and_clear(nullptr);
    for (const auto& rule : registry_.rules()) {
      if (rule->info().phase != RulePhase::kDataflow) continue;
      if (!filter_.enabled(rule->info().id)) continue;
      if ((!two_threads || dataflow_phase.empty()) && spent(rule->info().name)) break;
      dataflow_phase.add(check_with(*rule), dataflow_sink);
      if (!two_threads) dataflow_phase.run_and_clear(nullptr);
    }
  }
  charge(dataflow_phase.run_and_clear(other));
  for (Finding& f : state_dict_findings.take()) structural.report(std::move(f));
  for (Finding& f : after_state_dict.take()) structural.report(std::move(f));
  summary.structure_sound = graph_sound && !state_dict_watch.broken();
  if (summary.structure_sound) {
    take_dataflow_facts(facts, summary);
    for (Finding& f : dataflow_findings.take()) any_error.report(std::move(f));
  }
  // Only a program with errors pays for the diagnosis; a clean one never gets here.
  if (any_error.broken() && !spent("the diagnosis")) summary.root_causes = diagnosis::plan_repairs(index);
  return summary;
}

FileResult Engine::check_file(const std::filesystem::path& path, const LoadOptions& options,
                              IrDisposal disposal, const CheckedFileObserver& observer) const {
  FileResult result;
  result.path = path.string();
  CollectingSink collected;
  FilteringSink filtered(filter_, collected);

  // Load findings are watched per program name so a program its loader could not read
  // fully is not handed to the dataflow rules.
  class LoadWatch final : public DiagnosticSink {
   public:
    explicit LoadWatch(DiagnosticSink& next) : next_(next) {}
    void report(Finding finding) override {
      if (finding.severity == Severity::kError && finding.rule_id == kMalformedProgram.id)
        broken_programs_.push_back(finding.program);
      next_.report(std::move(finding));
    }
    bool broken(const std::string& program) const {
      for (const auto& name : broken_programs_)
        if (name == program || name.empty()) return true;
      return false;
    }

   private:
    DiagnosticSink& next_;
    std::vector<std::string> broken_programs_;
  } load_watch(filtered);

  // Started before the load: reading counts against the budget too.
  CpuBudget budget(options.max_file_cpu_seconds);
  // The IR lives on an arena: it is only read here and dropped whole at the end.
  ArenaLoadedFile loaded;
  LoadOptions filtered_options = options;
  filtered_options.rule_filter = &filter_;
  filtered_options.intern_node_metadata = true;  // the arena IR is only read
  result.outcome = load_file(path, filtered_options, loaded, load_watch);
  if (result.outcome == LoadOutcome::kUnreadable) {
    result.error = loaded.error;
    return result;
  }
  if (result.outcome == LoadOutcome::kSkipped) return result;
  const std::vector<const ir::Program*> archive(loaded.programs.begin(), loaded.programs.end());
  for (const ir::Program* program : archive) {
    if (budget.spent(fmt::format("the checks of program '{}'", program->name()))) break;
    result.programs.push_back(
        check_program(*program, filtered, !load_watch.broken(program->name()), archive, &budget));
  }
  if (budget.was_spent()) report_budget_spent(budget, filtered);
  result.findings = collected.take();
  diagnosis::group_findings(result);
  if (observer) observer(loaded.programs, result);
#if !defined(PT2LINT_ADDRESS_SANITIZER)
  if (disposal == IrDisposal::kLeaveToExit) (void)loaded.arena.release();
#endif
  return result;
}

}  // namespace pt2lint
