// `pt2lint schemas FILE --missing` (or the older `schemas --missing FILE`): a template schema line for every op FILE calls that no
// schema source knows, to fill in and pass back with --op-schemas.
#include <algorithm>
#include <iostream>
#include <memory>
#include <set>

#include <fmt/format.h>

#include "analysis/dataflow/node_ops.h"
#include "analysis/opschema/schema_catalog.h"
#include "analysis/program_index.h"
#include "analysis/opschema/schema_template.h"
#include "cli/command_output.h"
#include "cli/op_schema_files.h"
#include "cli/terminal.h"
#include "cli/refuse_unusable.h"
#include "cli/subcommand.h"
#include "io/readers/loaded_programs.h"

namespace pt2lint {
namespace {

struct SchemasOptions {
  std::string path;     // the positional FILE
  std::string missing;  // --missing FILE, the older spelling
  std::string output;
  std::vector<std::string> op_schemas;
};

int run_schemas(SchemasOptions options) {
  if (options.path.empty() == options.missing.empty()) {
    print_error(options.path.empty() ? "schemas needs a FILE: `pt2lint schemas FILE --missing`"
                                     : "give FILE once: `pt2lint schemas FILE --missing`");
    return kExitUsage;
  }
  if (options.missing.empty()) options.missing = options.path;
  opschema::SchemaCatalog known;
  if (!load_op_schema_files(options.op_schemas, known)) return kExitUsage;
  LoadedPrograms loaded = load_programs(options.missing);
  if (int refused = refuse_unreadable(options.missing, loaded); refused != kExitClean) return refused;
  if (loaded.has_errors()) {
    print_load_findings(options.missing, loaded);
    return kExitFindings;
  }
  CommandOutput output(options.output);
  if (!output.ok()) return kExitUsage;
  std::ostream& out = output.stream();
  out << fmt::format(
      "# Ops of {} with no known schema. Check each line against `print(torch.ops.NS.OP.OVERLOAD._schema)`,\n"
      "# mark every argument the op writes as Tensor(a!) (Tensor(a!)[] for a list), and pass this file\n"
      "# with --op-schemas. Argument kinds are guessed from one call; writes are never guessed.\n",
      options.missing);
  // The answer `check --verbose` gives (NodeOps::unknown_targets over the same schemas):
  // ops that can take a schema line get a template, the others (Python operators, higher-order
  // ops) a comment saying why none can be written.
  std::set<std::string> printed;
  for (const ir::Program& program : loaded.programs) {
    ProgramIndex index(program);
    index.set_op_knowledge(OpKnowledge{&known, false});
    dataflow::NodeOps ops(index);
    for (std::string_view target : ops.unknown_targets()) {
      if (!printed.insert(std::string(target)).second) continue;
      const ir::Graph& graph = program.program().graph_module().graph();
      const auto node = std::find_if(graph.nodes().begin(), graph.nodes().end(),
                                     [&](const ir::Node& n) { return n.target() == target; });
      if (node == graph.nodes().end()) continue;
      if (opschema::parse_serialized_target(target)) {
        out << fmt::format("{}  # node `{}` of program `{}`\n", opschema::schema_template(*node), node->name(),
                           program.name());
      } else {
        out << fmt::format("# {}: node `{}` of program `{}` is not a torch.ops operator; no schema line can "
                           "describe it, and its effects are assumed unknown\n",
                           target, node->name(), program.name());
      }
    }
  }
  if (printed.empty()) out << "# (none: every op has a known schema)\n";
  return output.written() ? kExitClean : kExitUsage;
}

}  // namespace

Subcommand add_schemas_command(CLI::App& app) {
  auto options = std::make_shared<SchemasOptions>();
  CLI::App* cmd = app.add_subcommand("schemas", "op schemas: list the ops of a program with no known schema");
  cmd->add_option("file", options->path, "a .pt2, program .json or .textproto file");
  // `--missing` alone is what it lists (the only listing); `--missing FILE` is kept for
  // scripts written before FILE became positional.
  cmd->add_option("--missing", options->missing, "print a template line per op of FILE with no known schema")
      ->expected(0, 1);
  cmd->add_option("-o,--output", options->output, "write the template lines to FILE");
  add_op_schemas_option(*cmd, options->op_schemas);
  return {cmd, [options] { return run_schemas(*options); }};
}

}  // namespace pt2lint
