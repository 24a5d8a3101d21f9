// `pt2lint fix PATH... (-o OUT | --in-place | --dry-run | --diff) [--unsafe-fixes]`: applies the
// signature repairs the diagnosis can prove, copies everything else through untouched, checks
// its own output and refuses to write anything that is not clean (docs/fix.md). Many files and
// folders per call, as linters' fixers run; a summary line counts the outcomes.
#include <fmt/format.h>

#include <filesystem>
#include <iostream>
#include <map>
#include <memory>
#include <set>
#include <system_error>

#include "cli/refuse_unusable.h"
#include "cli/subcommand.h"
#include "cli/terminal.h"
#include "contract/loaded_programs.h"
#include "diagnosis/repair_program.h"
#include "diagnosis/signature_text.h"
#include "engine/engine.h"
#include "engine/file_discovery.h"
#include "lowering/lowered_output.h"
#include "lowering/rename_nested.h"
#include "support/atomic_file.h"

namespace pt2lint {
namespace {

struct FixOptions {
  std::vector<std::string> inputs;
  std::string output;
  bool in_place = false;
  bool dry_run = false;  // --dry-run and --diff: print the repair as a diff, write nothing
  bool unsafe_fixes = false;
  bool quiet = false;
};

enum class Outcome { kClean, kRepaired, kNeedsUnsafe, kOutOfReach, kFailed };

void print_findings(const std::string& path, const std::vector<Finding>& findings) {
  for (const Finding& f : findings) {
    if (f.severity != Severity::kError) continue;
    std::cerr << fmt::format("  {}{}{}: {} [{} {}]\n", path, f.program.empty() ? "" : ":", f.program,
                             f.message, f.rule_id, f.rule_name);
  }
}

// The error findings `check` reports for `path` (all rules, no config).
std::vector<Finding> check_errors(const RuleRegistry& registry, const std::filesystem::path& path) {
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

// Writes the repaired programs to `out` through a staging file beside it, checks that file
// with every rule, and renames it over `out` (an atomic replace) only when it is clean.
Outcome write_checked(const RuleRegistry& registry, const std::string& input, const std::string& out_path,
                      const std::vector<ir::Program>& programs, bool state_renamed, std::size_t edits) {
  // Staged beside the output under a name mkstemp picks (support/atomic_file.h), checked, and
  // only then renamed into place; every early return removes it.
  Expected<AtomicFile> staged = AtomicFile::create(out_path);
  if (!staged.ok()) {
    print_error(staged.message());
    return Outcome::kFailed;
  }
  const std::filesystem::path staging = staged->temporary();
  if (std::string error = lowering::write_lowered(input, programs, staging, lowering::OutputFormat::kSameAsInput,
                                                  state_renamed);
      !error.empty()) {
    print_error(error);
    return Outcome::kFailed;
  }
  const std::vector<Finding> after = check_errors(registry, staging);
  if (!after.empty()) {
    print_error(fmt::format("'{}' is out of reach: the signature repair ({} edit(s)) leaves findings it "
                            "cannot fix, so nothing was written:",
                            input, edits));
    print_findings(out_path, after);
    return Outcome::kOutOfReach;
  }
  if (Status committed = staged->commit(); !committed.ok()) {
    print_error(committed.message());
    return Outcome::kFailed;
  }
  return Outcome::kRepaired;
}

Outcome fix_file(const RuleRegistry& registry, const FixOptions& options, const std::string& input,
                 const std::string& output) {
  const std::vector<Finding> before = check_errors(registry, input);
  LoadedPrograms loaded = load_programs(input);
  if (refuse_unreadable(input, loaded) != kExitClean) return Outcome::kFailed;
  if (before.empty()) {
    if (!options.quiet) std::cerr << fmt::format("pt2lint: '{}' is clean: nothing to repair, nothing written\n", input);
    return Outcome::kClean;
  }
  if (refuse_unusable(input, loaded,
                      "is out of reach: the file itself cannot be read as a program, so there is no "
                      "signature to repair") != kExitClean)
    return Outcome::kOutOfReach;
  std::size_t edits = 0;
  bool state_renamed = false;
  std::string diff;
  const diagnosis::RepairOptions repair_options{options.unsafe_fixes};
  for (ir::Program& program : loaded.programs) {
    diagnosis::ProgramRepair repair = diagnosis::repair_program(program, repair_options);
    if (!repair.refusal.empty()) {
      print_error(fmt::format("{}:{}: {}: {}", input, program.name(),
                              repair.needs_unsafe ? "not repaired" : "ambiguous, not repaired", repair.refusal));
      return repair.needs_unsafe ? Outcome::kNeedsUnsafe : Outcome::kOutOfReach;
    }
    for (const RootCause& cause : repair.causes) {
      if (options.quiet || options.dry_run) break;
      std::cerr << fmt::format("{}:{}: {}: {}\n", input, program.name(), cause.kind, cause.message);
      for (const SignatureEdit& edit : cause.edits)
        std::cerr << "  edit" << (edit.proof.safe() ? "" : " (unsafe)") << ": " << describe_edit(edit)
                  << '\n';
    }
    // The targets followed a rename of the state: the program records the mapping, so that
    // `pt2lint diff CLEAN FIXED` pairs the states by it.
    lowering::record_renames(program, repair.followed_renames);
    state_renamed |= repair.state_entries_renamed;
    edits += repair.edits.size();
    diff += diagnosis::unified_diff(diagnosis::signature_lines(repair.before),
                                    diagnosis::signature_lines(repair.after),
                                    fmt::format("{}:{}", input, program.name()),
                                    fmt::format("{}:{} (repaired)", output.empty() ? input : output, program.name()));
  }
  if (edits == 0) {
    std::set<std::string> rules;
    for (const Finding& f : before) rules.insert(f.rule_id + " " + f.rule_name);
    std::string list;
    for (const std::string& rule : rules) list += (list.empty() ? "" : ", ") + rule;
    print_error(fmt::format("'{}' is out of reach: no signature repair can be proven for its findings ({})",
                            input, list));
    return Outcome::kOutOfReach;
  }
  if (options.dry_run) {
    std::cout << diff;
    return Outcome::kRepaired;
  }
  const Outcome written = write_checked(registry, input, output, loaded.programs, state_renamed, edits);
  if (written == Outcome::kRepaired && !options.quiet)
    std::cerr << fmt::format("pt2lint: wrote '{}': {} edit(s) applied; it checks clean\n", output, edits);
  return written;
}

int run_fix(const RuleRegistry& registry, const FixOptions& options) {
  std::vector<std::string> missing;
  const std::vector<DiscoveredFile> files = discover_files(options.inputs, missing);
  for (const std::string& path : missing) print_error(fmt::format("no such file or folder: '{}'", path));
  if (!missing.empty()) return kExitUsage;
  if (!options.output.empty() && (files.size() != 1 || files.front().found_by_folder_walk)) {
    print_error("-o names one output file: give one input file, or use --in-place or --dry-run for many");
    return kExitUsage;
  }
  std::map<Outcome, int> counts;
  for (const DiscoveredFile& file : files) {
    const std::string input = file.path.string();
    ++counts[fix_file(registry, options, input, options.in_place ? input : options.output)];
  }
  const bool many = files.size() > 1 || (files.size() == 1 && files.front().found_by_folder_walk);
  if (many && !options.quiet)
    std::cerr << fmt::format("pt2lint fix: {} {}, {} need --unsafe-fixes, {} out of reach, {} clean{}\n",
                             counts[Outcome::kRepaired], options.dry_run ? "repairable" : "repaired",
                             counts[Outcome::kNeedsUnsafe], counts[Outcome::kOutOfReach], counts[Outcome::kClean],
                             counts[Outcome::kFailed] ? fmt::format(", {} failed", counts[Outcome::kFailed]) : "");
  if (counts[Outcome::kFailed] > 0) return kExitUsage;
  if (counts[Outcome::kNeedsUnsafe] + counts[Outcome::kOutOfReach] > 0) return kExitFindings;
  return kExitClean;
}

}  // namespace

Subcommand add_fix_command(CLI::App& app, const RuleRegistry& registry) {
  auto options = std::make_shared<FixOptions>();
  CLI::App* cmd = app.add_subcommand(
      "fix", "repair a broken graph signature with the edits pt2lint can prove (docs/fix.md)");
  cmd->add_option("paths", options->inputs, ".pt2, program .json or .textproto files, or folders of them")->required();
  auto* output = cmd->add_option("-o,--output", options->output, "where to write the repaired program (one input)");
  auto* in_place = cmd->add_flag("--in-place", options->in_place,
                                 "replace each input with its repair (atomically: a checked staging file is renamed over it)");
  cmd->add_flag("--dry-run,--diff", options->dry_run, "print each repair as a unified diff of the signature; write nothing");
  cmd->add_flag("--unsafe-fixes", options->unsafe_fixes,
                "also apply edits decided only by name similarity (listed otherwise; docs/fix.md)");
  cmd->add_flag("-q,--quiet", options->quiet, "print nothing on success");
  output->excludes(in_place);
  cmd->callback([options, output, in_place] {
    if (!options->dry_run && output->count() == 0 && in_place->count() == 0)
      throw CLI::RequiredError("--output, --in-place or --dry-run");
  });
  return {cmd, [&registry, options] { return run_fix(registry, *options); }};
}

}  // namespace pt2lint
