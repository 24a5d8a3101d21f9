#include "lowering/repair_paths.h"

#include <algorithm>
#include <filesystem>
#include <optional>
#include <set>
#include <utility>

#include <fmt/format.h>

#include "diagnosis/promised_write_backs.h"
#include "diagnosis/repair_program.h"
#include "diagnosis/signature_text.h"
#include "engine/engine.h"
#include "engine/file_discovery.h"
#include "io/writers/output_file.h"
#include "lowering/rename_nested.h"
#include "lowering/repair_against.h"
#include "support/atomic_file.h"

namespace pt2lint::lowering {
namespace {

// The error findings `check` reports for `path` (all rules, no config).
std::vector<Finding> error_findings_of(const RuleRegistry& registry, const std::filesystem::path& path) {
  Engine engine(registry, RuleFilter{});
  FileResult result = engine.check_file(path, LoadOptions{});
  std::vector<Finding> errors;
  for (Finding& f : result.findings)
    if (f.severity == Severity::kError) errors.push_back(std::move(f));
  if (result.outcome == LoadOutcome::kUnreadable) {
    Finding f;
    f.message = "cannot be read back: " + result.error;
    errors.push_back(std::move(f));
  }
  return errors;
}

// Writes the repaired programs to `fix.output` through a staging file beside it, checks that
// file with every rule, and renames it over the output (an atomic replace) only when it is
// clean. The staging file's name is mkstemp's (support/atomic_file.h); every early return
// removes it.
// With --dry-run the staging file goes to the temporary folder and is never renamed: the dry
// run refuses exactly what the real run would refuse.
void write_checked(const RuleRegistry& registry, const FixOptions& options, bool state_renamed, FileFix& fix) {
  const std::filesystem::path target =
      options.dry_run ? std::filesystem::temp_directory_path() /
                            ("pt2lint-dry-run-" + std::filesystem::path(fix.input).filename().string())
                      : std::filesystem::path(fix.output);
  Expected<AtomicFile> staged = AtomicFile::create(target);
  if (!staged.ok()) {
    fix.error = staged.message();
    return;
  }
  const std::filesystem::path staging = staged->temporary();
  if (Status written =
          write_lowered(fix.input, fix.loaded.programs, staging, OutputFormat::kSameAsInput, state_renamed);
      !written.ok()) {
    fix.error = written.message();
    return;
  }
  fix.remaining = error_findings_of(registry, staging);
  if (!fix.remaining.empty()) {
    fix.outcome = FixOutcome::kOutOfReach;
    fix.error = fmt::format("'{}' is out of reach: the signature repair ({} edit(s)) leaves findings it "
                            "cannot fix, so nothing {}:",
                            fix.input, fix.edits, options.dry_run ? "would be written" : "was written");
    return;
  }
  if (!options.against.empty()) {
    if (Status kept = keeps_contract(options.against, staging.string()); !kept.ok()) {
      fix.outcome = FixOutcome::kOutOfReach;
      fix.error = fmt::format("'{}' is out of reach: the repair ({} edit(s)) checks clean, but {}; nothing {}",
                              fix.input, fix.edits, kept.message(), options.dry_run ? "would be written" : "was written");
      return;
    }
  }
  if (options.dry_run) {  // the staging file is removed with `staged`
    fix.outcome = FixOutcome::kRepaired;
    return;
  }
  if (Status committed = staged->commit(); !committed.ok()) {
    fix.error = committed.message();
    return;
  }
  fix.outcome = FixOutcome::kRepaired;
}

const ir::Program* counterpart(const LoadedPrograms* original, const ir::Program& program) {
  if (original == nullptr) return nullptr;
  for (const ir::Program& p : original->programs)
    if (p.name() == program.name()) return &p;
  return nullptr;
}

bool same_outputs(const ir::Program& a, const ir::Program& b) {
  const auto& ga = a.program().graph_module();
  const auto& gb = b.program().graph_module();
  return ga.signature().SerializeAsString() == gb.signature().SerializeAsString() &&
         ga.graph().outputs_size() == gb.graph().outputs_size() &&
         std::equal(ga.graph().outputs().begin(), ga.graph().outputs().end(), gb.graph().outputs().begin(),
                    [](const auto& x, const auto& y) { return x.SerializeAsString() == y.SerializeAsString(); });
}

// --against: the program's own evidence could not decide (or proposed nothing), and ORIGINAL's
// output signature may: the repair that adopts it, or nullopt (with `why`) when it does not apply.
std::optional<diagnosis::ProgramRepair> adopt_from_original(ir::Program& program, const ir::Program& original,
                                                            std::string& why) {
  diagnosis::PromisedRepair adopted = diagnosis::adopt_original_outputs(program, original);
  if (!adopted.refusal.empty() || adopted.edits.empty()) {
    why = adopted.refusal.empty() ? "ORIGINAL's output signature changes nothing" : adopted.refusal;
    return std::nullopt;
  }
  diagnosis::ProgramRepair repair;
  repair.causes = std::move(adopted.causes);
  repair.edits = std::move(adopted.edits);
  repair.before = std::move(adopted.before);
  repair.after = std::move(adopted.after);
  return repair;
}

// Repairs each program of `fix.loaded` in memory; false (with `fix` saying why) on a refusal.
bool repair_loaded_programs(const FixOptions& options, const LoadedPrograms* original, FileFix& fix,
                            bool& state_renamed) {
  for (ir::Program& program : fix.loaded.programs) {
    const ir::Program* before = counterpart(original, program);
    // --against: a state renamed consistently goes back to ORIGINAL's names (docs/fix.md).
    std::set<std::string> original_states;
    if (before != nullptr)
      for (const ir::InputSpec& spec : before->program().graph_module().signature().input_specs()) {
        if (spec.has_buffer()) original_states.insert(spec.buffer().buffer_name());
        if (spec.has_parameter()) original_states.insert(spec.parameter().parameter_name());
      }
    diagnosis::RepairOptions repair_options{options.unsafe_fixes};
    if (!original_states.empty()) repair_options.original_states = &original_states;
    diagnosis::ProgramRepair repair = diagnosis::repair_program(program, repair_options);
    if (before != nullptr && !repair.needs_unsafe && (!repair.refusal.empty() || repair.edits.empty()) &&
        !same_outputs(program, *before)) {
      std::string why;
      if (std::optional<diagnosis::ProgramRepair> adopted = adopt_from_original(program, *before, why)) {
        repair = std::move(*adopted);
      } else if (!repair.refusal.empty()) {
        repair.refusal += "; and ORIGINAL cannot decide it: " + why;
      }
    }
    if (!repair.refusal.empty()) {
      fix.outcome = repair.needs_unsafe ? FixOutcome::kNeedsUnsafe : FixOutcome::kOutOfReach;
      fix.error = fmt::format("{}:{}: {}: {}", fix.input, program.name(),
                              repair.needs_unsafe ? "not repaired" : "ambiguous, not repaired", repair.refusal);
      return false;
    }
    // The targets followed a rename of the state: the program records the mapping, so that
    // `pt2lint diff CLEAN FIXED` pairs the states by it.
    record_renames(program, repair.followed_renames);
    state_renamed |= repair.state_entries_renamed;
    fix.edits += repair.edits.size();
    fix.diff += diagnosis::unified_diff(
        diagnosis::signature_lines(repair.before), diagnosis::signature_lines(repair.after),
        fmt::format("{}:{}", fix.input, program.name()),
        fmt::format("{}:{} (repaired)", fix.output.empty() ? fix.input : fix.output, program.name()));
    fix.repaired.push_back({program.name(), std::move(repair.causes)});
  }
  return true;
}

FileFix fix_file(const RuleRegistry& registry, const FixOptions& options, const LoadedPrograms* original,
                 const std::string& input, const std::string& output) {
  FileFix fix;
  fix.input = input;
  fix.output = output;
  fix.errors_before = error_findings_of(registry, input);
  fix.loaded = load_programs(input);
  if (!fix.loaded.readable) return fix;  // kFailed
  if (fix.errors_before.empty() && original == nullptr) {
    fix.outcome = FixOutcome::kClean;
    return fix;
  }
  fix.outcome = FixOutcome::kOutOfReach;
  if (!fix.loaded.usable()) return fix;
  bool state_renamed = false;
  if (!fix.errors_before.empty() && !repair_loaded_programs(options, original, fix, state_renamed)) return fix;
  if (original != nullptr && !restore_against(*original, fix)) return fix;
  if (fix.edits == 0 && fix.errors_before.empty()) {
    // --against on a file check finds clean, with no write to restore: it must keep the contract.
    if (Status kept = keeps_contract(options.against, input); !kept.ok()) {
      fix.error = fmt::format("'{}' is out of reach: {}, and no signature edit restores it", input, kept.message());
      return fix;
    }
    fix.outcome = FixOutcome::kClean;
    fix.kept_contract = true;
    return fix;
  }
  if (fix.edits == 0) {
    std::set<std::string> rules;
    for (const Finding& f : fix.errors_before) rules.insert(f.rule_id + " " + f.rule_name);
    std::string list;
    for (const std::string& rule : rules) list += (list.empty() ? "" : ", ") + rule;
    fix.error = fmt::format("'{}' is out of reach: no signature repair can be proven for its findings ({})",
                            input, list);
    return fix;
  }
  fix.outcome = FixOutcome::kFailed;
  write_checked(registry, options, state_renamed, fix);
  return fix;
}

}  // namespace

FixReport repair_paths(const RuleRegistry& registry, const FixOptions& options) {
  FixReport report;
  const std::vector<DiscoveredFile> files = discover_files(options.inputs, report.missing);
  if (!report.missing.empty()) {
    report.stop = FixStop::kMissingPaths;
    return report;
  }
  if (!options.output.empty() && (files.size() != 1 || files.front().found_by_folder_walk)) {
    report.stop = FixStop::kOutputNeedsOneFile;
    return report;
  }
  // --against: ORIGINAL's contract is the promise, so ORIGINAL itself must be a sound program.
  LoadedPrograms original;
  if (!options.against.empty()) {
    original = load_programs(options.against);
    const std::vector<Finding> errors = original.usable() ? error_findings_of(registry, options.against)
                                                          : std::vector<Finding>{};
    if (!original.usable() || !errors.empty()) {
      report.stop = FixStop::kBadOriginal;
      report.original_error =
          !original.usable()
              ? fmt::format("--against '{}' cannot be read as a program", options.against)
              : fmt::format("--against '{}' has {} error finding(s) of its own ({}...): its contract is no promise to "
                            "keep", options.against, errors.size(), errors.front().message);
      return report;
    }
  }
  for (const DiscoveredFile& file : files) {
    const std::string input = file.path.string();
    const FileFix fix = fix_file(registry, options, options.against.empty() ? nullptr : &original, input,
                                 options.in_place ? input : options.output);
    ++report.counts[fix.outcome];
    if (options.on_file) options.on_file(fix);
  }
  report.many = files.size() > 1 || (files.size() == 1 && files.front().found_by_folder_walk);
  return report;
}

}  // namespace pt2lint::lowering
