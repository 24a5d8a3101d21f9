// `pt2lint fix FILE -o OUT [--dry-run]`: applies the signature repairs the diagnosis can
// prove, copies everything else through untouched, checks its own output and refuses to
// write anything that is not clean (docs/fix.md).
#include <fmt/format.h>

#include <filesystem>
#include <iostream>
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
#include "lowering/lowered_output.h"
#include "support/atomic_file.h"

namespace pt2lint {
namespace {

struct FixOptions {
  std::string input;
  std::string output;
  bool dry_run = false;
  bool quiet = false;
};

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

int run_fix(const RuleRegistry& registry, const FixOptions& options) {
  const std::vector<Finding> before = check_errors(registry, options.input);
  LoadedPrograms loaded = load_programs(options.input);
  if (int refused = refuse_unreadable(options.input, loaded); refused != kExitClean) return refused;
  if (before.empty()) {
    if (!options.quiet) std::cerr << fmt::format("pt2lint: '{}' is clean: nothing to repair, nothing written\n", options.input);
    return kExitClean;
  }
  if (int refused = refuse_unusable(options.input, loaded,
                                    "is out of reach: the file itself cannot be read as a program, so "
                                    "there is no signature to repair");
      refused != kExitClean)
    return refused;
  std::size_t edits = 0;
  std::string diff;
  for (ir::Program& program : loaded.programs) {
    diagnosis::ProgramRepair repair = diagnosis::repair_program(program);
    if (!repair.refusal.empty()) {
      print_error(fmt::format("{}:{}: ambiguous, not repaired: {}", options.input, program.name(),
                              repair.refusal));
      return kExitFindings;
    }
    for (const RootCause& cause : repair.causes) {
      if (options.quiet || options.dry_run) break;
      std::cerr << fmt::format("{}:{}: {}: {}\n", options.input, program.name(), cause.kind, cause.message);
      for (const SignatureEdit& edit : cause.edits) std::cerr << "  edit: " << describe_edit(edit) << '\n';
    }
    edits += repair.edits.size();
    diff += diagnosis::unified_diff(diagnosis::signature_lines(repair.before),
                                    diagnosis::signature_lines(repair.after),
                                    fmt::format("{}:{}", options.input, program.name()),
                                    fmt::format("{}:{} (repaired)", options.output.empty() ? options.input : options.output, program.name()));
  }
  if (edits == 0) {
    std::set<std::string> rules;
    for (const Finding& f : before) rules.insert(f.rule_id + " " + f.rule_name);
    std::string list;
    for (const std::string& rule : rules) list += (list.empty() ? "" : ", ") + rule;
    print_error(fmt::format("'{}' is out of reach: no signature repair can be proven for its findings ({})",
                            options.input, list));
    return kExitFindings;
  }
  if (options.dry_run) {
    std::cout << diff;
    return kExitClean;
  }
  // Staged beside the output under a name mkstemp picks (support/atomic_file.h), checked, and
  // only then renamed into place; every early return removes it.
  AtomicFile staged(options.output);
  if (!staged.ok()) {
    print_error(staged.error());
    return kExitUsage;
  }
  const std::filesystem::path staging = staged.temporary();
  if (std::string error = lowering::write_lowered(options.input, loaded.programs, staging,
                                                  lowering::OutputFormat::kSameAsInput, false);
      !error.empty()) {
    print_error(error);
    return kExitUsage;
  }
  const std::vector<Finding> after = check_errors(registry, staging);
  if (!after.empty()) {
    print_error(fmt::format("'{}' is out of reach: the signature repair ({} edit(s)) leaves findings it "
                            "cannot fix, so nothing was written:",
                            options.input, edits));
    print_findings(options.output, after);
    return kExitFindings;
  }
  if (!staged.commit()) {
    print_error(staged.error());
    return kExitUsage;
  }
  if (!options.quiet)
    std::cerr << fmt::format("pt2lint: wrote '{}': {} edit(s) applied; it checks clean\n", options.output, edits);
  return kExitClean;
}

}  // namespace

Subcommand add_fix_command(CLI::App& app, const RuleRegistry& registry) {
  auto options = std::make_shared<FixOptions>();
  CLI::App* cmd = app.add_subcommand(
      "fix", "repair a broken graph signature with the edits pt2lint can prove (docs/fix.md)");
  add_program_file(*cmd, "input", options->input);
  auto* output = cmd->add_option("-o,--output", options->output, "where to write the repaired program");
  cmd->add_flag("--dry-run", options->dry_run, "print the repair as a unified diff of the signature; write nothing");
  cmd->add_flag("-q,--quiet", options->quiet, "print nothing on success");
  cmd->callback([options, output] {
    if (!options->dry_run && output->count() == 0) throw CLI::RequiredError("--output");
  });
  return {cmd, [&registry, options] { return run_fix(registry, *options); }};
}

}  // namespace pt2lint
