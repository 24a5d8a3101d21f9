// `pt2lint lower IN -o OUT`: the reference lowering (verifier/lowering), as a command.
#include <iostream>
#include <memory>
#include <optional>

#include <fmt/format.h>

#include "verifier/cli/subcommand.h"
#include "verifier/cli/temp_file.h"
#include "verifier/contract/loaded_programs.h"
#include "verifier/lowering/functionalize.h"
#include "verifier/lowering/lowered_output.h"
#include "verifier/lowering/rename_nested.h"

namespace pt2lint {
namespace {

struct LowerOptions {
  std::string input;
  std::string output;
  std::string format = "pt2";
  bool rename_nested = false;
  bool quiet = false;
};

int run_lower(const LowerOptions& options) {
  LoadedPrograms loaded = load_programs(options.input);
  if (!loaded.readable) {
    std::cerr << fmt::format("pt2lint: error: cannot open '{}': {}\n", options.input, loaded.error);
    return kExitUsage;
  }
  if (loaded.has_errors() || loaded.programs.empty()) {
    print_load_findings(options.input, loaded);
    std::cerr << fmt::format("pt2lint: error: '{}' cannot be lowered: the file itself is broken\n",
                             options.input);
    return kExitFindings;
  }
  bool renamed = false;
  for (ir::Program& program : loaded.programs) {
    const lowering::FunctionalizeResult result = lowering::functionalize(program);
    if (!result.ok) {
      std::cerr << fmt::format("pt2lint: error: {}:{}: cannot lower: {}\n", options.input,
                               program.name(), result.error);
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
    if (!options.quiet) std::cerr << summary << '\n';
  }
  const auto format = options.format == "textproto" ? lowering::OutputFormat::kTextproto
                                                    : lowering::OutputFormat::kSameAsInput;
  // `-o -`: the writers seek, so the program goes to a temporary file first, then to stdout.
  const bool to_stdout = options.output == "-";
  std::optional<TempFile> staged;
  if (to_stdout) staged.emplace(std::filesystem::path(options.input).extension().string());
  std::string error = staged ? staged->error() : "";
  if (error.empty())
    error = lowering::write_lowered(options.input, loaded.programs,
                                    staged ? staged->path() : std::filesystem::path(options.output),
                                    format, renamed);
  if (error.empty() && staged) error = copy_file_to_stream(staged->path(), std::cout);
  if (!error.empty()) {
    std::cerr << "pt2lint: error: " << error << '\n';
    return kExitUsage;
  }
  return kExitClean;
}

}  // namespace

Subcommand add_lower_command(CLI::App& app) {
  auto options = std::make_shared<LowerOptions>();
  CLI::App* cmd = app.add_subcommand(
      "lower", "reference lowering: functionalize the state writes of a TRAINING program");
  cmd->add_option("input", options->input, "a .pt2, program .json or .textproto file")->required();
  cmd->add_option("-o,--output", options->output, "where to write the lowered program; - writes it to standard output")->required();
  cmd->add_option("--format", options->format,
                  "pt2: the input's own layout (archive, legacy zip or JSON); textproto: the IR")
      ->check(CLI::IsMember({"pt2", "textproto"}));
  cmd->add_flag("--rename-nested", options->rename_nested,
                "rename dotted buffer FQNs to lifted_buf_* (as backends do) and record the mapping");
  cmd->add_flag("-q,--quiet", options->quiet, "print nothing on success");
  return {cmd, [options] { return run_lower(*options); }};
}

}  // namespace pt2lint
