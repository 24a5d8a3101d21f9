// `pt2lint diff BEFORE AFTER`: does AFTER (a lowering of BEFORE) keep BEFORE's mutation
// contract? Exit 0 when it does, 1 with one finding per broken promise, 2 on a usage error,
// 3 when nothing is broken but some state's writes cannot be decided (PT414).
#include <iostream>
#include <memory>

#include <fmt/format.h>

#include "analysis/opschema/schema_catalog.h"
#include "analysis/program_index.h"
#include "cli/command_output.h"
#include "cli/op_schema_files.h"
#include "cli/refuse_unusable.h"
#include "cli/subcommand.h"
#include "cli/terminal.h"
#include "contract/contract_diff.h"
#include "contract/learned_schemas.h"
#include "contract/loaded_programs.h"
#include "contract/rename_map_file.h"
#include "core/rule_catalogue.h"
#include "lowering/rename_nested.h"
#include "reports/formats.h"
#include "reports/html/contract_diff_page.h"

namespace pt2lint {
namespace {

struct DiffOptions {
  std::string before;
  std::string after;
  std::string rename;
  std::string format = "text";
  std::string output;
  std::vector<std::string> op_schemas;
};

// --op-schemas files plus what each side's auto_functionalized nodes say the other side's
// custom ops write. False (after printing why) on a bad schema file.
bool build_op_schemas(const DiffOptions& options, const LoadedPrograms& before, const LoadedPrograms& after,
                      opschema::SchemaCatalog& catalog, std::ostream& out) {
  const bool ok = load_op_schema_files(options.op_schemas, catalog);
  auto learn = [&](const LoadedPrograms& side, const LoadedPrograms& twin, const std::string& twin_path) {
    for (const LearnedSchema& learned : learn_schemas(side.programs, twin.programs, &catalog)) {
      std::string written;
      for (const std::string& name : learned.written) written += (written.empty() ? "`" : ", `") + name + "`";
      out << fmt::format("pt2lint: note: learned from the auto_functionalized nodes of '{}': {} writes {} "
                         "(as if declared `{}`)\n",
                         twin_path, learned.op.substr(learned.op.starts_with("torch.ops.") ? 10 : 0), written,
                         learned.line);
      catalog.add_text(learned.line, "learned from " + twin_path);
    }
  };
  learn(before, after, options.after);
  learn(after, before, options.before);
  return ok;
}

bool load_side(const std::string& path, LoadedPrograms& loaded) {
  loaded = load_programs(path);
  return refuse_unusable(path, loaded, "has no readable program to compare") == kExitClean;
}

int run_diff(const RuleRegistry& registry, const DiffOptions& options) {
  const ReportFormat* format = find_format(options.format);
  if (format == nullptr) {
    print_error("unknown format '" + options.format + "'");
    return kExitUsage;
  }
  RenameMap given;
  if (!options.rename.empty()) {
    const std::string error = read_rename_map(options.rename, given);
    if (!error.empty()) {
      print_error(error);
      return kExitUsage;
    }
  }
  LoadedPrograms before, after;
  if (!load_side(options.before, before) || !load_side(options.after, after)) return kExitUsage;

  opschema::SchemaCatalog schemas;
  if (!build_op_schemas(options, before, after, schemas, format->notes_on_stdout && options.output.empty() ? std::cout : std::cerr))
    return kExitUsage;
  const OpKnowledge knowledge{&schemas, false};
  std::vector<ProgramContract> before_contracts, after_contracts;
  for (const ir::Program& p : before.programs) before_contracts.push_back(derive_contract(p, knowledge));
  for (const ir::Program& p : after.programs) after_contracts.push_back(derive_contract(p, knowledge));

  CollectingSink sink;
  bool bad_mapping = false;
  auto renames_for = [&](const ProgramContract& contract) {
    if (!options.rename.empty()) return given;
    for (const ir::Program& program : after.programs) {
      if (program.name() != contract.program) continue;
      std::string error;
      auto recorded = lowering::recorded_renames(program, error);
      if (!error.empty()) {
        print_error(fmt::format("{}:{}: {}", options.after, program.name(), error));
        bad_mapping = true;
      }
      if (recorded) return *recorded;
    }
    return RenameMap{};
  };
  diff_program_sets(before_contracts, after_contracts, renames_for, sink);
  if (bad_mapping) return kExitUsage;

  RunReport report;
  FileResult file;
  file.path = options.after;
  for (const ProgramContract& c : after_contracts) {
    ProgramSummary summary;
    summary.name = c.program;
    summary.dialect = c.dialect;
    file.programs.push_back(std::move(summary));
  }
  file.findings = sink.take();
  bool broken = false, undecidable = false;
  for (const Finding& f : file.findings) {
    if (f.rule_id == kWriteBackUndecidable.id) undecidable = true;
    else broken = true;
  }
  report.files.push_back(std::move(file));
  RenderOptions render;
  render.registry = &registry;
  render.closing_summary = false;  // "N files checked" would miscount a comparison of two
  CommandOutput out(options.output);
  if (!out.ok()) return kExitUsage;
  if (out.to_stdout()) render.color = color_on_stdout(format->colour);
  if (format->diff_page) {
    html::write_contract_diff_page({options.before, options.after, &before_contracts, &after_contracts,
                                    renames_for, &report.files.front().findings},
                                   render, out.stream());
  } else {
    format->make()->render(report, render, out.stream());
  }
  if (!out.written()) return kExitUsage;
  return broken ? kExitFindings : undecidable ? kExitUndecidable : kExitClean;
}

}  // namespace

Subcommand add_diff_command(CLI::App& app, const RuleRegistry& registry) {
  auto options = std::make_shared<DiffOptions>();
  CLI::App* cmd = app.add_subcommand(
      "diff", "check that a lowered program keeps the mutation contract of the original");
  cmd->add_option("before", options->before, "the original program")->required();
  cmd->add_option("after", options->after, "the lowered program")->required();
  cmd->add_option("--rename", options->rename,
                  "JSON object {\"old.fqn\": \"new_name\"}; default: the mapping AFTER records");
  cmd->add_option("--format", options->format, "output format")->check(CLI::IsMember(format_names()));
  cmd->add_option("-o,--output", options->output, "write the report to FILE");
  add_op_schemas_option(*cmd, options->op_schemas);
  return {cmd, [&registry, options] { return run_diff(registry, *options); }};
}

}  // namespace pt2lint
