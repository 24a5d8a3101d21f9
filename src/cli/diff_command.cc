// `pt2lint diff BEFORE AFTER`: does AFTER (a lowering of BEFORE) keep BEFORE's mutation
// contract? Exit 0 when it does, 1 with one finding per broken promise, 2 on a usage error,
// 3 when nothing is broken but some state's writes cannot be decided (PT414).
#include <iostream>
#include <memory>
#include <set>

#include <fmt/format.h>

#include "cli/command_output.h"
#include "cli/op_schema_files.h"
#include "cli/refuse_unusable.h"
#include "cli/subcommand.h"
#include "cli/terminal.h"
#include "contract/diff_programs.h"
#include "reports/html/contract_diff_page.h"
#include "reports/formats.h"

namespace pt2lint {
namespace {

struct DiffFlags {
  std::string before;
  std::string after;
  std::string rename;
  std::string format = "text";
  std::string output;
  std::vector<std::string> op_schemas;
  std::vector<std::string> extend_select;  // opt-in contract rules: IDs, ID prefixes or names
};

// The IDs --extend-select turns on; false (after printing why) for a selector that names no
// rule diff reports.
bool contract_rules_selected(const RuleRegistry& registry, const DiffFlags& flags,
                             std::set<std::string, std::less<>>& ids) {
  for (const std::string& selector : flags.extend_select) {
    std::vector<const RuleInfo*> rules = registry.match(selector);
    std::erase_if(rules, [](const RuleInfo* r) { return r->phase != RulePhase::kContract; });
    if (rules.empty()) {
      const std::string close = registry.suggest(selector);
      print_error(fmt::format("--extend-select: '{}' selects no rule diff reports (the contract rules, PT4xx){}",
                              selector, close.empty() ? "" : fmt::format("; did you mean '{}'?", close)));
      return false;
    }
    for (const RuleInfo* r : rules) ids.emplace(r->id);
  }
  return true;
}

// Prints why diff_programs stopped before comparing; the exit code.
int print_diff_refusal(const DiffFlags& flags, const DiffReport& report) {
  switch (report.outcome) {
    case DiffOutcome::kBadRenameMap: print_error(report.error); break;
    case DiffOutcome::kUnusable:
      (void)refuse_unusable(report.before_unusable ? flags.before : flags.after,
                            report.before_unusable ? report.before : report.after,
                            "has no readable program to compare");  // a usage error either way
      break;
    case DiffOutcome::kBadRecordedRenames:
      for (const std::string& error : report.mapping_errors) print_error(error);
      break;
    default: break;
  }
  return kExitUsage;
}

int run_diff(const RuleRegistry& registry, const DiffFlags& flags) {
  const ReportFormat* format = find_format(flags.format);
  if (format == nullptr) {
    print_error("unknown format '" + flags.format + "'");
    return kExitUsage;
  }
  std::set<std::string, std::less<>> opt_in;
  if (!contract_rules_selected(registry, flags, opt_in)) return kExitUsage;
  const DiffReport report = diff_programs({flags.before, flags.after, flags.rename, flags.op_schemas, opt_in});
  if (report.outcome == DiffOutcome::kBadOpSchemas)
    for (const std::string& problem : report.schema_problems) print_error(problem);
  std::ostream& notes = format->notes_on_stdout && flags.output.empty() ? std::cout : std::cerr;
  for (const std::string& note : report.notes) notes << "pt2lint: note: " << note << '\n';
  if (report.outcome != DiffOutcome::kCompared) return print_diff_refusal(flags, report);

  RunReport run;
  FileResult file;
  file.path = flags.after;
  for (const ProgramContract& c : report.after_contracts) {
    ProgramSummary summary;
    summary.name = c.program;
    summary.dialect = c.dialect;
    file.programs.push_back(std::move(summary));
  }
  file.findings = report.findings;
  run.files.push_back(std::move(file));
  RenderOptions render;
  render.registry = &registry;
  render.closing_summary = false;  // "N files checked" would miscount a comparison of two
  CommandOutput out(flags.output);
  if (!out.ok()) return kExitUsage;
  if (out.to_stdout()) render.color = color_on_stdout(format->colour);
  if (format->diff_page) {
    auto renames_for = [&](const ProgramContract& contract) {
      Expected<RenameMap> renames = diff_renames(report, flags.after, contract);
      if (renames.ok()) return std::move(renames).value();
      print_error(renames.message());
      return RenameMap{};
    };
    html::write_contract_diff_page({flags.before, flags.after, &report.before_contracts, &report.after_contracts,
                                    renames_for, &run.files.front().findings},
                                   render, out.stream());
  } else {
    format->make()->render(run, render, out.stream());
  }
  if (!out.written()) return kExitUsage;
  switch (report.verdict) {
    case ContractVerdict::kBroken: return kExitFindings;
    case ContractVerdict::kUndecidable: return kExitUndecidable;
    case ContractVerdict::kKept: return kExitClean;
  }
  return kExitClean;
}

}  // namespace

Subcommand add_diff_command(CLI::App& app, const RuleRegistry& registry) {
  auto options = std::make_shared<DiffFlags>();
  CLI::App* cmd = app.add_subcommand(
      "diff", "check that a lowered program keeps the mutation contract of the original");
  cmd->add_option("before", options->before, "the original program")->required();
  cmd->add_option("after", options->after, "the lowered program")->required();
  cmd->add_option("--rename", options->rename,
                  "JSON object {\"old.fqn\": \"new_name\"}; default: the mapping AFTER records");
  cmd->add_option("--format", options->format, "output format")->check(CLI::IsMember(format_names()));
  cmd->add_option("-o,--output", options->output, "write the report to FILE");
  add_op_schemas_option(*cmd, options->op_schemas);
  cmd->add_option("--extend-select", options->extend_select,
                  "also report these opt-in contract rules (IDs, ID prefixes or names, comma-separated): "
                  "literal-changed, metadata-lost")
      ->delimiter(',');
  return {cmd, [&registry, options] { return run_diff(registry, *options); }};
}

}  // namespace pt2lint
