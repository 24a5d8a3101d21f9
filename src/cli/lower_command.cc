// `pt2lint lower IN -o OUT`: the reference lowering (src/lowering), as a command.
#include <iostream>
#include <memory>
#include <optional>

#include <fmt/format.h>

#include "analysis/opschema/schema_catalog.h"
#include "analysis/program_index.h"
#include "cli/op_schema_files.h"
#include "cli/refuse_unusable.h"
#include "cli/subcommand.h"
#include "cli/terminal.h"
#include "contract/loaded_programs.h"
#include "lowering/functionalize.h"
#include "lowering/lowered_output.h"
#include "lowering/rename_nested.h"
#include "lowering/self_check.h"
#include "lowering/unmodelled_effects.h"
#include "support/temp_file.h"

namespace pt2lint {
namespace {

struct LowerOptions {
  std::string input;
  std::string output;
  std::string format = "pt2";
  bool rename_nested = false;
  bool quiet = false;
  std::vector<std::string> op_schemas;
};

int run_lower(const LowerOptions& options) {
  LoadedPrograms loaded = load_programs(options.input);
  if (int refused = refuse_unusable(options.input, loaded, "cannot be lowered: the file itself is broken");
      refused != kExitClean)
    return refused;
  opschema::SchemaCatalog schemas;
  if (!load_op_schema_files(options.op_schemas, schemas)) return kExitUsage;
  bool renamed = false;
  for (ir::Program& program : loaded.programs) {
    if (const std::string why = lowering::unmodelled_effects(program, &schemas, options.input); !why.empty()) {
      print_error(fmt::format("{}:{}: cannot lower: {}", options.input, program.name(), why));
      return kExitFindings;
    }
    const lowering::FunctionalizeResult result = lowering::functionalize(program, /*whole_program=*/true, &schemas);
    if (!result.ok) {
      print_error(fmt::format("{}:{}: cannot lower: {}", options.input, program.name(), result.error));
      return kExitFindings;
    }
    std::string summary = fmt::format("{}: functionalized {} write(s)", program.name(), result.writes);
    if (options.rename_nested) {
      const lowering::Renames renames = lowering::plan_nested_buffer_renames(program);
      lowering::apply_renames(program, renames);
      lowering::record_renames(program, renames);
      renamed = renamed || !renames.empty();
      summary += fmt::format(", renamed {} nested buffer(s)", renames.size());
      for (const auto& [from, to] : renames) summary += fmt::format("\n  {} -> {}", from, to);
    }
    // Never write a program pt2lint did not functionalize: check the result as ATEN first.
    if (const std::string problem = lowering::self_check(program, &schemas); !problem.empty()) {
      print_error(fmt::format("{}:{}: cannot lower: {}; nothing was written", options.input,
                              program.name(), problem));
      return kExitFindings;
    }
    if (!options.quiet) std::cerr << summary << '\n';
  }
  const auto format = options.format == "textproto" ? lowering::OutputFormat::kTextproto
                                                    : lowering::OutputFormat::kSameAsInput;
  // `-o -`: the writers seek, so the program goes to a temporary file first, then to stdout.
  const bool to_stdout = options.output == "-";
  std::optional<Expected<TempFile>> staged;
  if (to_stdout) staged.emplace(TempFile::create(std::filesystem::path(options.input).extension().string()));
  std::string error = staged ? staged->message() : "";
  if (error.empty())
    error = lowering::write_lowered(options.input, loaded.programs,
                                    staged ? staged->value().path() : std::filesystem::path(options.output),
                                    format, renamed);
  if (error.empty() && staged) error = copy_file_to_stream(staged->value().path(), std::cout).message();
  if (!error.empty()) {
    print_error(error);
    return kExitUsage;
  }
  return kExitClean;
}

}  // namespace

Subcommand add_lower_command(CLI::App& app) {
  auto options = std::make_shared<LowerOptions>();
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
