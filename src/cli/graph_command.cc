// `pt2lint graph FILE`: draw the mutation contract of a program, one state's slice, or the
// slice of one finding with its broken edge marked, as DOT or SVG (docs/graph.md).
#include <fmt/format.h>

#include <iostream>
#include <memory>
#include <optional>

#include "analysis/program_index.h"
#include "cli/command_output.h"
#include "cli/subcommand.h"
#include "cli/terminal.h"
#include "core/rule_catalogue.h"
#include "engine/config/config_discovery.h"
#include "engine/engine.h"
#include "engine/rule_selection.h"
#include "reports/graph/picture_builders.h"
#include "reports/graph/finding_pictures.h"
#include "reports/graph/picture_writers.h"

namespace pt2lint {
namespace {

struct GraphOptions {
  std::string path;
  std::string program;
  std::string state;
  int finding = 0;  // 1-based, in the order `pt2lint check FILE` lists them
  std::string format = "dot";
  std::string output;
};

// The rule filter `pt2lint check FILE` would use, so that finding numbers agree.
std::optional<RuleFilter> filter_for(const RuleRegistry& registry, const std::string& path) {
  Config config;
  RuleFilter filter;
  if (Status selected = filter_from_config(find_config(path).value_or(std::filesystem::path()), {}, registry,
                                          config, filter);
      !selected.ok()) {
    print_error(selected.message());
    return std::nullopt;
  }
  return filter.for_file(path);
}

const ir::Program* pick_program(const std::vector<ir::Program*>& programs, const std::string& name) {
  for (const ir::Program* program : programs)
    if (name.empty() || program->name() == name) return program;
  return nullptr;
}

// Draws what the options ask for from the checked file; "" error on success.
std::string draw(const GraphOptions& options, const std::vector<ir::Program*>& programs,
                 const FileResult& result, std::optional<graph::Picture>& picture) {
  const std::string file = std::filesystem::path(options.path).filename().string();
  if (options.finding > 0) {
    if (options.finding > static_cast<int>(result.findings.size()))
      return fmt::format("--finding {}: '{}' has {} finding{}", options.finding, options.path,
                         result.findings.size(), result.findings.size() == 1 ? "" : "s");
    const Finding& finding = result.findings[options.finding - 1];
    const ir::Program* program = pick_program(programs, finding.program);
    std::optional<ProgramIndex> index;
    if (program != nullptr && !finding.program.empty()) index.emplace(*program);
    picture = graph::finding_picture(index ? &*index : nullptr, finding,
                                     fmt::format("{}: finding {}: {}", file, options.finding,
                                                 graph::finding_picture_title(finding)));
    return {};
  }
  const ir::Program* program = pick_program(programs, options.program);
  if (program == nullptr)
    return options.program.empty() ? "no readable program in '" + options.path + "'"
                                   : "no program named '" + options.program + "'";
  // A program its loader could not read fully has no contract to draw: drawing what was read
  // would pass a guess off as the program.
  for (const Finding& finding : result.findings) {
    if (finding.rule_id == kMalformedProgram.id && finding.severity == Severity::kError &&
        (finding.program.empty() || finding.program == program->name()))
      return fmt::format("program '{}' could not be read: {} (`pt2lint check {}` lists every finding)",
                         program->name(), finding.message, options.path);
  }
  ProgramIndex index(*program);
  const std::string title = fmt::format("{}:{}", file, program->name());
  if (options.state.empty()) {
    picture = graph::program_picture(index, title + ": mutation contract");
    return {};
  }
  picture = graph::state_picture(index, options.state, title + ": " + options.state);
  if (!picture) return fmt::format("program '{}' has no state '{}'", program->name(), options.state);
  return {};
}

int run_graph(const RuleRegistry& registry, const GraphOptions& options) {
  std::optional<RuleFilter> filter = filter_for(registry, options.path);
  if (!filter) return kExitUsage;
  std::optional<graph::Picture> picture;
  std::string error;
  Engine engine(registry, std::move(*filter));
  FileResult result = engine.check_file(
      options.path, LoadOptions{}, IrDisposal::kLeaveToExit,
      [&](const std::vector<ir::Program*>& programs, FileResult& checked) {
        error = draw(options, programs, checked, picture);
      });
  if (result.outcome == LoadOutcome::kUnreadable) {
    print_error(result.error.empty() ? "cannot open '" + options.path + "'" : result.error);  // it names the file
    return kExitUsage;
  }
  if (!picture) {
    print_error(error.empty() ? "'" + options.path + "' is not an exported program" : error);
    return kExitUsage;
  }
  return write_command_output(options.output, [&](std::ostream& out) {
    if (options.format == "svg") {
      graph::write_svg(*picture, out);
    } else {
      graph::write_dot(*picture, out);
    }
  });
}

}  // namespace

Subcommand add_graph_command(CLI::App& app, const RuleRegistry& registry) {
  auto options = std::make_shared<GraphOptions>();
  CLI::App* cmd = app.add_subcommand(
      "graph", "draw the mutation contract of a program, a state's slice or a finding's");
  add_program_file(*cmd, "path", options->path);
  cmd->add_option("--program", options->program, "the program to draw (default: the first)");
  auto* state = cmd->add_option("--state", options->state,
                                "draw only this state's slice (FQN, or a user input's name)");
  cmd->add_option("--finding", options->finding,
                  "draw finding N (1-based, in the order `pt2lint check FILE` lists them)")
      ->check(CLI::PositiveNumber)
      ->excludes(state);
  cmd->add_option("--format", options->format, "dot (default) or svg")
      ->check(CLI::IsMember({"dot", "svg"}));
  cmd->add_option("-o,--output", options->output, "write the picture to FILE");
  return {cmd, [&registry, options] { return run_graph(registry, *options); }};
}

}  // namespace pt2lint
