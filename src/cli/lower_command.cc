// `pt2lint lower IN -o OUT`: the reference lowering (src/lowering), as a command.
#include <iostream>
#include <memory>

#include <fmt/format.h>

#include "reports/escape/text_escape.h"

#include "cli/op_schema_files.h"
#include "cli/refuse_unusable.h"
#include "cli/subcommand.h"
#include "cli/terminal.h"
#include "lowering/lower_program.h"

namespace pt2lint {
namespace {

struct LowerFlags {
  std::string input;
  std::string output;
  std::string format = "pt2";
  bool rename_nested = false;
  bool quiet = false;
  std::vector<std::string> op_schemas;
};

void print_lowering_summary(const lowering::ProgramLowering& lowered) {
  std::string summary = fmt::format("{}: functionalized {} write(s)", inert_text(lowered.program), lowered.writes);
  if (lowered.renames) {
    summary += fmt::format(", renamed {} nested buffer(s)", lowered.renames->size());
    for (const auto& [from, to] : *lowered.renames) summary += fmt::format("\n  {} -> {}", inert_text(from), inert_text(to));
  }
  std::cerr << summary << '\n';
}

int run_lower(const LowerFlags& flags) {
  lowering::LowerOptions options;
  options.input = flags.input;
  options.output = flags.output;
  options.standard_output = &std::cout;
  options.format = flags.format == "textproto" ? lowering::OutputFormat::kTextproto
                                               : lowering::OutputFormat::kSameAsInput;
  options.rename_nested = flags.rename_nested;
  options.op_schemas = flags.op_schemas;
  const lowering::LowerReport report = lowering::lower_program(options);
  switch (report.outcome) {
    case lowering::LowerOutcome::kUnusable:
      return refuse_unusable(flags.input, report.input, "cannot be lowered: the file itself is broken");
    case lowering::LowerOutcome::kBadOpSchemas:
      for (const std::string& problem : report.schema_problems) print_error(problem);
      return kExitUsage;
    default: break;
  }
  if (!flags.quiet)
    for (const lowering::ProgramLowering& lowered : report.lowered) print_lowering_summary(lowered);
  if (report.outcome == lowering::LowerOutcome::kLowered) return kExitClean;
  print_error(report.error);
  return report.outcome == lowering::LowerOutcome::kRefused ? kExitFindings : kExitUsage;
}

}  // namespace

Subcommand add_lower_command(CLI::App& app) {
  auto options = std::make_shared<LowerFlags>();
  CLI::App* cmd = app.add_subcommand(
      "lower", "reference lowering: functionalize the state writes of a TRAINING program");
  add_program_file(*cmd, "input", options->input);
  cmd->add_option("-o,--output", options->output, "where to write the lowered program; - writes it to standard output")->required();
  cmd->add_option("--format", options->format,
                  "pt2: the input's own layout (archive, legacy zip or JSON); textproto: the IR")
      ->check(CLI::IsMember({"pt2", "textproto"}));
  cmd->add_flag("--rename-nested", options->rename_nested,
                "rename dotted buffer FQNs to lifted_buf_* (as backends do) and record the mapping");
  cmd->add_flag("-q,--quiet", options->quiet, "print nothing on success");
  add_op_schemas_option(*cmd, options->op_schemas);
  return {cmd, [options] { return run_lower(*options); }};
}

}  // namespace pt2lint
