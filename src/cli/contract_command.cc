// `pt2lint contract P.pt2`: print the mutation contract of every program in a file.
#include <iostream>
#include <memory>

#include <fmt/format.h>

#include "analysis/program_index.h"
#include "cli/command_output.h"
#include "cli/op_schema_files.h"
#include "cli/refuse_unusable.h"
#include "cli/subcommand.h"
#include "reports/contract_report.h"
#include "io/readers/loaded_programs.h"

namespace pt2lint {
namespace {

struct ContractOptions {
  std::string path;
  std::string format = "text";
  std::string output;
  std::vector<std::string> op_schemas;
};

int run_contract(const ContractOptions& options) {
  LoadedPrograms loaded = load_programs(options.path);
  if (int refused = refuse_unusable(options.path, loaded, "has no readable program"); refused != kExitClean)
    return refused;
  opschema::SchemaCatalog schemas;
  if (!load_op_schema_files(options.op_schemas, schemas)) return kExitUsage;
  std::vector<ProgramContract> contracts;
  std::vector<const ir::Program*> programs;
  for (const ir::Program& program : loaded.programs) {
    contracts.push_back(derive_contract(program, OpKnowledge{&schemas, false}));
    programs.push_back(&program);
  }
  const std::vector<SharedStatePromise> shared = derive_shared_state(programs, OpKnowledge{&schemas, false});
  return write_command_output(options.output, [&](std::ostream& out) {
    if (options.format == "json") {
      print_contracts_json(contracts, out, shared);
    } else {
      print_contracts_text(contracts, out, shared);
    }
  });
}

}  // namespace

Subcommand add_contract_command(CLI::App& app) {
  auto options = std::make_shared<ContractOptions>();
  CLI::App* cmd = app.add_subcommand("contract", "print the mutation contract of each program in a file");
  add_program_file(*cmd, "path", options->path);
  cmd->add_option("--format", options->format, "text or json")->check(CLI::IsMember({"text", "json"}));
  cmd->add_option("-o,--output", options->output, "write the contract to FILE");
  add_op_schemas_option(*cmd, options->op_schemas);
  return {cmd, [options] { return run_contract(*options); }};
}

}  // namespace pt2lint
