// `pt2lint fix PATH... (-o OUT | --in-place | --dry-run | --diff) [--unsafe-fixes] [--against ORIGINAL]`: applies the
// signature repairs the diagnosis can prove, copies everything else through untouched, checks
// its own output and refuses to write anything that is not clean (docs/fix.md). Many files and
// folders per call, as linters' fixers run; a summary line counts the outcomes.
#include <fmt/format.h>

#include "reports/escape/text_escape.h"

#include <iostream>
#include <memory>

#include "cli/refuse_unusable.h"
#include "cli/subcommand.h"
#include "cli/terminal.h"
#include "core/signature_edit.h"
#include "lowering/repair_paths.h"

namespace pt2lint {
namespace {

using lowering::FileFix;
using lowering::FixOutcome;

struct FixFlags {
  std::vector<std::string> inputs;
  std::string output;
  bool in_place = false;
  bool dry_run = false;  // --dry-run and --diff: print the repair as a diff, write nothing
  bool unsafe_fixes = false;
  bool quiet = false;
  std::string against;
};

void print_error_findings(const std::string& path, const std::vector<Finding>& findings) {
  for (const Finding& f : findings) {
    if (f.severity != Severity::kError) continue;
    std::cerr << fmt::format("  {}{}{}: {} [{} {}]\n", inert_text(path), f.program.empty() ? "" : ":",
                             inert_text(f.program), inert_text(f.message), f.rule_id, f.rule_name);
  }
}

void print_causes(const FileFix& fix) {
  for (const lowering::ProgramFix& program : fix.repaired) {
    for (const RootCause& cause : program.causes) {
      std::cerr << fmt::format("{}:{}: {}: {}\n", inert_text(fix.input), inert_text(program.program), cause.kind,
                               inert_text(cause.message));
      for (const SignatureEdit& edit : cause.edits)
        std::cerr << "  edit" << (edit.proof.safe() ? "" : " (unsafe)") << ": " << inert_text(describe_edit(edit))
                  << '\n';
    }
  }
}

void print_file_fix(const FixFlags& flags, const FileFix& fix) {
  if (!fix.loaded.readable) {
    (void)refuse_unreadable(fix.input, fix.loaded);  // prints why; the outcome says kFailed
    return;
  }
  if (fix.outcome == FixOutcome::kClean) {
    if (!flags.quiet)
      std::cerr << fmt::format("pt2lint: '{}' is clean{}: nothing to repair, nothing written\n", inert_text(fix.input),
                               fix.kept_contract ? " and keeps ORIGINAL's mutation contract" : "");
    return;
  }
  if (!fix.loaded.usable()) {
    (void)refuse_unusable(fix.input, fix.loaded,
                          "is out of reach: the file itself cannot be read as a program, so there is no "
                          "signature to repair");  // prints why; the outcome says kOutOfReach
    return;
  }
  if (!flags.quiet && !flags.dry_run) print_causes(fix);
  if (!fix.error.empty()) {
    print_error(fix.error);
    print_error_findings(fix.output.empty() ? fix.input : fix.output, fix.remaining);
  } else if (flags.dry_run) {
    std::cout << fix.diff;
  } else if (!flags.quiet) {
    std::cerr << fmt::format("pt2lint: wrote '{}': {} edit(s) applied; it checks clean\n", inert_text(fix.output), fix.edits);
  }
}

int run_fix(const RuleRegistry& registry, const FixFlags& flags) {
  lowering::FixOptions options;
  options.inputs = flags.inputs;
  options.output = flags.output;
  options.in_place = flags.in_place;
  options.dry_run = flags.dry_run;
  options.unsafe_fixes = flags.unsafe_fixes;
  options.against = flags.against;
  options.on_file = [&flags](const FileFix& fix) { print_file_fix(flags, fix); };
  lowering::FixReport report = lowering::repair_paths(registry, options);
  switch (report.stop) {
    case lowering::FixStop::kMissingPaths:
      for (const std::string& path : report.missing) print_error(fmt::format("no such file or folder: '{}'", path));
      return kExitUsage;
    case lowering::FixStop::kOutputNeedsOneFile:
      print_error("-o names one output file: give one input file, or use --in-place or --dry-run for many");
      return kExitUsage;
    case lowering::FixStop::kBadOriginal:
      print_error(report.original_error);
      return kExitUsage;
    case lowering::FixStop::kDone: break;
  }
  auto& counts = report.counts;
  if (report.many && !flags.quiet)
    std::cerr << fmt::format("pt2lint fix: {} {}, {} need --unsafe-fixes, {} out of reach, {} clean{}\n",
                             counts[FixOutcome::kRepaired], flags.dry_run ? "repairable" : "repaired",
                             counts[FixOutcome::kNeedsUnsafe], counts[FixOutcome::kOutOfReach],
                             counts[FixOutcome::kClean],
                             counts[FixOutcome::kFailed] ? fmt::format(", {} failed", counts[FixOutcome::kFailed]) : "");
  if (counts[FixOutcome::kFailed] > 0) return kExitUsage;
  if (counts[FixOutcome::kNeedsUnsafe] + counts[FixOutcome::kOutOfReach] > 0) return kExitFindings;
  return kExitClean;
}

}  // namespace

Subcommand add_fix_command(CLI::App& app, const RuleRegistry& registry) {
  auto options = std::make_shared<FixFlags>();
  CLI::App* cmd = app.add_subcommand(
      "fix", "repair a broken graph signature with the edits pt2lint can prove (docs/fix.md)");
  cmd->add_option("paths", options->inputs, ".pt2, program .json or .textproto files, or folders of them")->required();
  auto* output = cmd->add_option("-o,--output", options->output, "where to write the repaired program (one input)");
  auto* in_place = cmd->add_flag("--in-place", options->in_place,
                                 "replace each input with its repair (atomically: a checked staging file is renamed over it)");
  cmd->add_flag("--dry-run,--diff", options->dry_run, "print each repair as a unified diff of the signature; write nothing");
  cmd->add_flag("--unsafe-fixes", options->unsafe_fixes,
                "also apply edits decided only by name similarity (listed otherwise; docs/fix.md)");
  cmd->add_option("--against", options->against,
                  "ORIGINAL program: keep its mutation contract (restore lost write-backs whose values still "
                  "exist; the result must pass `diff ORIGINAL`)")
      ->check(CLI::ExistingFile);
  cmd->add_flag("-q,--quiet", options->quiet, "print nothing on success");
  output->excludes(in_place);
  cmd->callback([options, output, in_place] {
    // CLI11's way for a callback to refuse: main.cc reports it as any missing option.
    if (!options->dry_run && output->count() == 0 && in_place->count() == 0)
      throw CLI::RequiredError("--output, --in-place or --dry-run");
  });
  return {cmd, [&registry, options] { return run_fix(registry, *options); }};
}

}  // namespace pt2lint
