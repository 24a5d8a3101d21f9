// `pt2lint reduce FILE (--rule NAME | --property NAME | --crash) [-o OUT]`: shrinks FILE to a
// small textproto that still triggers the finding, the broken pipeline property, or the crash
// (or hang), with `# expect:` lines for the golden runner: a regression test in one command
// (tests/golden/regressions/README.md).
#include <sys/wait.h>
#include <unistd.h>

#include <algorithm>
#include <csignal>
#include <iostream>
#include <map>
#include <memory>
#include <string>
#include <utility>
#include <vector>

#include <fmt/format.h>

#include "reports/escape/text_escape.h"
#include <google/protobuf/text_format.h>

#include "cli/command_output.h"
#include "cli/subcommand.h"
#include "cli/terminal.h"
#include "io/readers/loaded_programs.h"
#include "engine/engine.h"
#include "properties/golden_expectation.h"
#include "properties/ir_walk.h"
#include "properties/pipeline_properties.h"
#include "properties/reducer.h"

namespace pt2lint {
namespace {

struct ReduceOptions {
  std::string input;
  std::string output;
  std::string rule;
  std::string property;
  bool crash = false;
  bool keep_metadata = false;
  int timeout_s = 10;
};

// Node metadata that names the exporting machine and the user's code: stack traces (absolute
// paths, source lines) and module stacks. A reduced file is meant for a public bug report.
constexpr std::string_view kPrivateMetadata[] = {"stack_trace", "nn_module_stack", "fwd_nn_module_stack",
                                                 "source_fn_stack", "fwd_source_fn_stack"};

// Drops kPrivateMetadata from every node of every graph; returns how many entries went.
std::size_t strip_private_metadata(ir::ProgramSet& set) {
  std::size_t dropped = 0;
  for (ir::Program& program : *set.mutable_programs()) {
    for (ir::Graph* graph : properties::all_graphs(program)) {
      for (ir::Node& node : *graph->mutable_nodes()) {
        auto* metadata = node.mutable_metadata();
        const int before = metadata->size();
        auto is_private = [](const ir::StringEntry& entry) {
          return std::find(std::begin(kPrivateMetadata), std::end(kPrivateMetadata), entry.key()) !=
                 std::end(kPrivateMetadata);
        };
        metadata->erase(std::remove_if(metadata->begin(), metadata->end(), is_private), metadata->end());
        dropped += static_cast<std::size_t>(before - metadata->size());
      }
    }
  }
  return dropped;
}

// --keep-metadata: the reducer drops node metadata like any other field the problem does not
// need; put the private entries of each surviving node (same program and node name) back.
void restore_private_metadata(ir::ProgramSet original, ir::ProgramSet& reduced) {
  std::map<std::pair<std::string, std::string>, std::vector<ir::StringEntry>> kept;
  for (ir::Program& program : *original.mutable_programs()) {
    for (const ir::Graph* graph : properties::all_graphs(program)) {
      for (const ir::Node& node : graph->nodes()) {
        for (const ir::StringEntry& entry : node.metadata()) {
          if (std::find(std::begin(kPrivateMetadata), std::end(kPrivateMetadata), entry.key()) !=
              std::end(kPrivateMetadata))
            kept[{program.name(), node.name()}].push_back(entry);
        }
      }
    }
  }
  for (ir::Program& program : *reduced.mutable_programs()) {
    for (ir::Graph* graph : properties::all_graphs(program)) {
      for (ir::Node& node : *graph->mutable_nodes()) {
        const auto entries = kept.find({program.name(), node.name()});
        if (entries == kept.end()) continue;
        for (const ir::StringEntry& entry : entries->second) {
          const bool present = std::any_of(node.metadata().begin(), node.metadata().end(),
                                           [&](const ir::StringEntry& e) { return e.key() == entry.key(); });
          if (!present) *node.add_metadata() = entry;
        }
      }
    }
  }
}

std::vector<ir::Program> programs_of(const ir::ProgramSet& set) { return {set.programs().begin(), set.programs().end()}; }

std::vector<Finding> check_all(const ir::ProgramSet& set, const RuleRegistry& registry) {
  const Engine engine(registry, RuleFilter{});
  CollectingSink sink;
  for (const ir::Program& p : set.programs()) engine.check_program(p, sink);
  return sink.take();
}

// The run of the whole pipeline in a child process: true when it dies by a signal (a crash,
// a sanitizer abort, or the alarm of a hang) or exits with a status other than 0.
bool pipeline_crashes(const ir::ProgramSet& set, const RuleRegistry& registry, int timeout_s) {
  std::cout.flush();
  const pid_t child = fork();
  if (child == 0) {
    alarm(static_cast<unsigned>(timeout_s));
    properties::run_pipeline(programs_of(set), registry);
    _exit(0);
  }
  int status = 0;
  if (child < 0 || waitpid(child, &status, 0) != child) return false;
  return WIFSIGNALED(status) || (WIFEXITED(status) && WEXITSTATUS(status) != 0);
}

std::string what_it_keeps(const ReduceOptions& o) {
  if (o.crash) return "--crash";
  return o.rule.empty() ? "--property " + o.property : "--rule " + o.rule;
}

int run_reduce(const RuleRegistry& registry, const ReduceOptions& o) {
  if (o.crash + !o.rule.empty() + !o.property.empty() != 1) {
    print_error("reduce needs exactly one of --rule, --property, --crash");
    return kExitUsage;
  }
  const LoadedPrograms loaded = load_programs(o.input);
  if (!loaded.readable || loaded.programs.empty()) {
    print_error(fmt::format("'{}' has no readable program to reduce{}", o.input,
                            loaded.error.empty() ? "" : ": " + loaded.error));
    return kExitUsage;
  }
  ir::ProgramSet set;
  // Judged as what it becomes: a textproto (an archive without its state files is broken).
  for (const ir::Program& p : loaded.programs) {
    ir::Program* copy = set.add_programs();
    *copy = p;
    copy->set_layout(ir::LAYOUT_TEXTPROTO);
  }

  properties::StillFails still_fails;
  if (o.crash) {
    still_fails = [&](const ir::ProgramSet& s) { return pipeline_crashes(s, registry, o.timeout_s); };
  } else if (!o.property.empty()) {
    still_fails = [&](const ir::ProgramSet& s) {
      for (const std::string& v : properties::run_pipeline(programs_of(s), registry).violations)
        if (properties::violation_property(v) == o.property) return true;
      return false;
    };
  } else {
    still_fails = [&](const ir::ProgramSet& s) {
      for (const Finding& f : check_all(s, registry))
        if (f.rule_id == o.rule || f.rule_name == o.rule) return true;
      return false;
    };
  }
  if (!still_fails(set)) {
    print_error(fmt::format("'{}' does not show the problem to keep ({})", o.input, what_it_keeps(o)));
    return kExitFindings;
  }
  if (!o.keep_metadata) {
    ir::ProgramSet stripped = set;
    if (strip_private_metadata(stripped) > 0) {
      if (still_fails(stripped)) {
        set = std::move(stripped);
      } else {
        std::cerr << "pt2lint: note: the problem depends on the stack traces or module stacks; they are "
                     "kept: review the reduced file before sharing it\n";
      }
    }
  }
  properties::ReduceStats stats;
  ir::ProgramSet reduced = properties::reduce(set, still_fails, &stats);
  if (o.keep_metadata) {
    ir::ProgramSet restored = reduced;
    restore_private_metadata(set, restored);
    if (still_fails(restored)) reduced = std::move(restored);
  }

  std::string text = fmt::format("# Reduced by `pt2lint reduce {} {}` ({} candidates tried, {} deletions kept).\n",
                                 std::filesystem::path(o.input).filename().string(), what_it_keeps(o), stats.tries,
                                 stats.kept);
  const std::vector<Finding> findings = check_all(reduced, registry);
  for (const Finding& f : findings)
    text += "# expect: " + properties::golden_expectation(f) + "\n";
  if (findings.empty()) text += "# expect: none\n";
  std::string body;
  google::protobuf::TextFormat::Printer printer;
  if (reduced.programs_size() == 1) printer.PrintToString(reduced.programs(0), &body);
  else printer.PrintToString(reduced, &body);
  text += body;
  if (int written = write_command_output(o.output, [&](std::ostream& out) { out << text; });
      written != kExitClean)
    return written;
  std::cerr << fmt::format("pt2lint: reduced '{}' from {} to {} bytes of textproto\n", inert_text(o.input),
                           [&] { std::string t; google::protobuf::TextFormat::PrintToString(set, &t); return t.size(); }(),
                           body.size());
  return kExitClean;
}

}  // namespace

Subcommand add_reduce_command(CLI::App& app, const RuleRegistry& registry) {
  auto options = std::make_shared<ReduceOptions>();
  CLI::App* cmd = app.add_subcommand(
      "reduce", "shrink a program to a small textproto that still shows a finding, a broken property or a crash");
  add_program_file(*cmd, "input", options->input);
  cmd->add_option("-o,--output", options->output, "where to write the reduced textproto (default: stdout)");
  cmd->add_option("--rule", options->rule, "keep a finding of this rule (ID or name)");
  cmd->add_option("--property", options->property,
                  "keep this broken pipeline property (docs/reliability.md), e.g. lower-idempotent");
  cmd->add_flag("--crash", options->crash, "keep a crash, sanitizer report or hang of the whole pipeline");
  cmd->add_option("--timeout", options->timeout_s, "--crash: seconds after which a run counts as a hang");
  cmd->add_flag("--keep-metadata", options->keep_metadata,
                "keep the nodes' stack traces and module stacks (dropped by default: they hold the "
                "exporting machine's paths and the model's source)");
  return {cmd, [&registry, options] { return run_reduce(registry, *options); }};
}

}  // namespace pt2lint
