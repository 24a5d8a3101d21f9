// `pt2lint check`: parses the flags into RunOptions, runs the check (engine/run.h), renders
// the report (src/reports) and turns it into an exit code. The run itself lives in the
// engine; this file only talks to the user.
#include <fmt/format.h>

#include "reports/escape/text_escape.h"

#include <algorithm>
#include <cstdlib>
#include <iostream>
#include <memory>

#include "cli/changed_files.h"
#include "cli/command_output.h"
#include "cli/op_schema_files.h"
#include "cli/rule_docs.h"
#include "cli/subcommand.h"
#include "cli/terminal.h"
#include "core/rule_catalogue.h"
#include "engine/run.h"
#include "reports/graph/finding_pictures.h"
#include "reports/formats.h"
#include "reports/github_renderer.h"
#include "reports/run_summary.h"

namespace pt2lint {
namespace {

// The flags that shape the output; everything that shapes the run goes into RunOptions.
struct CheckOptions {
  RunOptions run;
  std::string format = "text";
  std::string output;
  std::string shard;
  std::string source_root;
  std::string changed_files;  // --changed-files FILE: "" for none
  std::string full_report;
  bool show_mutations = false;
  bool verbose = false;
  bool statistics = false;
  bool quiet = false;
  bool exit_zero = false;
  std::string color = "auto";
  std::vector<std::string> exclude;  // --exclude: replaces the config's and the defaults
};

void print_stale_baseline(const std::vector<BaselineEntry>& stale) {
  std::cerr << fmt::format("pt2lint: {} baseline {} no longer match a finding (run with "
                           "--update-baseline to drop {}):\n",
                           stale.size(), stale.size() == 1 ? "entry" : "entries",
                           stale.size() == 1 ? "it" : "them");
  for (const BaselineEntry& entry : stale) {
    std::cerr << "  " << inert_text(entry.file) << (entry.program.empty() ? "" : ":" + inert_text(entry.program))
              << ": " << inert_text(entry.message) << " [" << inert_text(entry.rule) << ' ' << inert_text(entry.name)
              << "]\n";
  }
}

int run_check(const RuleRegistry& registry, CheckOptions& options) {
  const ReportFormat* format = find_format(options.format);
  if (format == nullptr) {
    print_error("unknown format '" + options.format + "'");
    return kExitUsage;
  }
  std::optional<std::set<std::string>> changed_files;
  if (!options.changed_files.empty()) {
    changed_files = read_changed_files(options.changed_files);
    if (!changed_files) return kExitUsage;
  }
  RunOptions& run = options.run;
  if (!options.exclude.empty()) run.exclude = options.exclude;
  if (!options.shard.empty()) {
    std::optional<Shard> shard = parse_shard(options.shard);
    if (!shard) {
      print_error("--shard takes I/N with 1 <= I <= N, e.g. 2/4; got '" + options.shard + "'");
      return kExitUsage;
    }
    run.shard = *shard;
  }
  run.standard_input = &std::cin;
  run.exit_after_run = true;
  run.observer = graph::finding_picture_observer(format->pictures);
  RunReport report;
  {
    ProgressLine progress(!options.quiet);
    run.progress = [&progress](std::size_t done, std::size_t total) { progress.file_done(done, total); };
    report = check_paths(registry, run);
  }
  for (const std::string& error : report.errors) print_error(error);
  if (report.stopped) return kExitUsage;
  if (!report.stale_baseline.empty() && !options.quiet) print_stale_baseline(report.stale_baseline);
  if (!report.baseline_note.empty() && !options.quiet) std::cerr << "pt2lint: note: " << inert_text(report.baseline_note) << '\n';
  // A path that yields nothing is never a silent success: a CI path with a typo fails.
  for (const std::string& path : report.without_programs)
    print_warning("no programs found under '" + path + "' (.pt2, program .json, .textproto)");

  RenderOptions render;
  render.registry = &registry;
  render.show_mutations = options.show_mutations;
  render.verbose = options.verbose;
  render.statistics = options.statistics && format->statistics;
  render.source_root = options.source_root;
  render.changed_files = std::move(changed_files);
  render.full_report = options.full_report;
  render.baseline_active = !report.baseline.empty();
  render.rule_doc = rule_doc_page;
  render.docs_url = report.docs_url;
  if (const char* summary = std::getenv("GITHUB_STEP_SUMMARY"); summary != nullptr && format->step_summary)
    render.step_summary_path = summary;
  CommandOutput out(options.output);
  if (!out.ok()) return kExitUsage;
  if (out.to_stdout()) render.color = color_on_stdout(format->colour, options.color);
  // --quiet silences the text report on the terminal; a file or another format is asked for.
  if (!out.to_stdout() || !options.quiet || !format->quiet)
    format->make()->render(report, render, out.stream());
  if (!out.written()) return kExitUsage;
  if (!render.step_summary_path.empty()) {
    // The annotations are written; a summary that cannot be is said, and changes no exit code.
    Status appended = append_step_summary(report, render, render.step_summary_path);
    if (!appended.ok()) print_warning(appended.message());
  }
  // Machine-readable formats keep stdout to themselves; their statistics go to stderr.
  if (options.statistics && !format->statistics) write_statistics(report, std::cerr);
  // A path that could not be opened, or that holds no program.
  if (!report.errors.empty() || !report.without_programs.empty()) return kExitUsage;
  if (options.exit_zero) return kExitClean;
  return count_findings(report).failing > 0 ? kExitFindings : kExitClean;
}

}  // namespace

Subcommand add_check_command(CLI::App& app, const RuleRegistry& registry) {
  auto options = std::make_shared<CheckOptions>();
  CheckOptions& check = *options;
  RunOptions& run = check.run;
  CLI::App* cmd = app.add_subcommand("check", "check .pt2, program .json and .textproto files");
  cmd->add_option("paths", run.paths, "files or folders to check; - reads standard input")
      ->required();
  cmd->add_option("--stdin-filename", run.stdin_filename,
                  "the name standard input (-) goes by in findings and config lookup");
  cmd->add_option("--format", check.format, "output format")
      ->check(CLI::IsMember(format_names()));
  cmd->add_option("--select", run.rules.command_line.select,
                  "only these rules (ID, ID prefix or name)")
      ->delimiter(',');
  cmd->add_option("--extend-select", run.rules.command_line.extend_select,
                  "also run these rules, e.g. opt-in ones (ID, ID prefix or name)")
      ->delimiter(',');
  cmd->add_option("--ignore", run.rules.command_line.ignore,
                  "skip these rules (ID, ID prefix or name)")
      ->delimiter(',');
  cmd->add_option("-o,--output", check.output, "write the report to FILE");
  cmd->add_option("-j,--jobs", run.jobs, "files checked in parallel (default: cores)");
  cmd->add_option("--shard", check.shard,
                  "check only shard I of N (I/N, from 1), split by a stable hash of each path");
  auto* config = cmd->add_option("--config", run.rules.config,
                                 "use this config file instead of searching for one");
  cmd->add_flag("--no-config", run.rules.no_config, "ignore pyproject.toml and .pt2lint.toml")
      ->excludes(config);
  cmd->add_option("--baseline", run.baseline,
                  "findings in this baseline file are reported as baselined and do not fail");
  cmd->add_flag("--update-baseline", run.update_baseline,
                "write every current finding to the --baseline file");
  cmd->add_option("--source-root", check.source_root,
                  "folder that stack-trace paths are made relative to (sarif, github, ...)");
  cmd->add_option("--changed-files", check.changed_files,
                  "file listing the paths a pull request changed, one per line (git diff "
                  "--name-only): github, sarif, rdjson and gitlab point a finding at its export "
                  "script's line only when the script is listed, else at the checked file");
  cmd->add_option("--full-report", check.full_report,
                  "markdown, github: the name of the full report (e.g. a CI artifact) that the "
                  "bounded summary points to for the findings it leaves out");
  cmd->add_flag("--show-mutations", check.show_mutations,
                "print each program's effective mutation set");
  cmd->add_flag("-v,--verbose", check.verbose,
                "also list the ops pt2lint has no schema for (treated conservatively), and show "
                "the findings folded under a root cause");
  cmd->add_flag("--statistics", check.statistics,
                "print only the finding counts per rule (with severity and fixable count) and "
                "the summary");
  add_op_schemas_option(*cmd, run.rules.op_schemas);
  cmd->add_flag("--verify-data", run.verify_data,
                "read whole every member torch.export.load reads, whatever its size, and check the CRC-32 of "
                "every weight and constant (reads the model's bytes; docs/performance.md)");
  cmd->add_option("--time-budget", run.max_file_cpu_seconds,
                  "CPU seconds one file's check may take before check-time-budget-spent ends it (default 60; "
                  "0: none)")
      ->check(CLI::NonNegativeNumber);
  cmd->add_flag("--unknown-ops-parameters", run.unknown_ops_parameters,
                fmt::format("also report parameters passed to ops of unknown schema ({})",
                            kUnknownOpMayWriteState.id));
  cmd->add_flag("-q,--quiet", check.quiet,
                "print nothing in text format, no progress line; use the exit code");
  cmd->add_flag("--exit-zero", check.exit_zero,
                "exit 0 even when there are error findings (usage and I/O errors still exit 2)");
  cmd->add_option("--color", check.color, "colour the text formats: auto (terminal, NO_COLOR, "
                                          "FORCE_COLOR), always or never")
      ->check(CLI::IsMember({"auto", "always", "never"}));
  cmd->add_option("--exclude", check.exclude,
                  "folder walks skip these globs, instead of the config's `exclude` and the "
                  "defaults (.git, .venv, __pycache__, ...)")
      ->delimiter(',');
  cmd->add_option("--extend-exclude", run.extend_exclude,
                  "folder walks also skip these globs")
      ->delimiter(',');
  cmd->add_flag("--no-respect-gitignore", run.no_respect_gitignore,
                "walk into files and folders that .gitignore hides");
  return {cmd, [&registry, options] { return run_check(registry, *options); }};
}

}  // namespace pt2lint
