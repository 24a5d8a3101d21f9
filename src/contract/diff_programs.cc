#include "contract/diff_programs.h"

#include <utility>

#include <fmt/format.h>

#include "analysis/opschema/schema_catalog.h"
#include "analysis/program_index.h"
#include "contract/learned_schemas.h"
#include "contract/node_diff.h"
#include "contract/recorded_renames.h"
#include "contract/rename_map_file.h"
#include "core/diagnostic_sink.h"
#include "core/rule_catalogue.h"

namespace pt2lint {
namespace {

// --op-schemas files plus what each side's auto_functionalized nodes say the other side's
// custom ops write; the notes say what was learned.
void build_diff_schemas(const DiffOptions& options, DiffReport& report, opschema::SchemaCatalog& catalog) {
  for (const std::string& path : options.op_schemas)
    for (std::string& problem : catalog.add_file(path)) report.schema_problems.push_back(std::move(problem));
  auto learn = [&](const LoadedPrograms& side, const LoadedPrograms& twin, const std::string& twin_path) {
    for (const LearnedSchema& learned : learn_schemas(side.programs, twin.programs, &catalog)) {
      std::string written;
      for (const std::string& name : learned.written) written += (written.empty() ? "`" : ", `") + name + "`";
      report.notes.push_back(fmt::format(
          "learned from the auto_functionalized nodes of '{}': {} writes {} (as if declared `{}`)", twin_path,
          learned.op.substr(learned.op.starts_with("torch.ops.") ? 10 : 0), written, learned.line));
      catalog.add_text(learned.line, "learned from " + twin_path);
    }
  };
  learn(report.before, report.after, options.after);
  learn(report.after, report.before, options.before);
}

ContractVerdict verdict_of(const std::vector<Finding>& findings) {
  bool undecidable = false;
  for (const Finding& f : findings) {
    if (f.rule_id == kWriteBackUndecidable.id) undecidable = true;
    else if (f.severity == Severity::kError) return ContractVerdict::kBroken;
  }
  return undecidable ? ContractVerdict::kUndecidable : ContractVerdict::kKept;
}

}  // namespace

Expected<RenameMap> diff_renames(const DiffReport& report, const std::string& after_path,
                                 const ProgramContract& after) {
  if (report.given) return *report.given;
  for (const ir::Program& program : report.after.programs) {
    if (program.name() != after.program) continue;
    Expected<std::optional<RenameMap>> recorded = recorded_renames(program);
    if (!recorded.ok())
      return Status::error(fmt::format("{}:{}: {}", after_path, program.name(), recorded.message()));
    if (recorded.value()) return std::move(*recorded.value());
  }
  return RenameMap{};
}

DiffReport diff_programs(const DiffOptions& options) {
  DiffReport report;
  if (!options.rename.empty()) {
    Expected<RenameMap> given = read_rename_map(options.rename);
    if (!given.ok()) {
      report.outcome = DiffOutcome::kBadRenameMap;
      report.error = given.message();
      return report;
    }
    report.given = std::move(given).value();
  }
  report.before = load_programs(options.before);
  if (!report.before.usable()) {
    report.outcome = DiffOutcome::kUnusable;
    report.before_unusable = true;
    return report;
  }
  report.after = load_programs(options.after);
  if (!report.after.usable()) {
    report.outcome = DiffOutcome::kUnusable;
    return report;
  }

  opschema::SchemaCatalog schemas;
  build_diff_schemas(options, report, schemas);
  if (!report.schema_problems.empty()) {
    report.outcome = DiffOutcome::kBadOpSchemas;
    return report;
  }
  const OpKnowledge knowledge{&schemas, false};
  for (const ir::Program& p : report.before.programs) report.before_contracts.push_back(derive_contract(p, knowledge));
  for (const ir::Program& p : report.after.programs) report.after_contracts.push_back(derive_contract(p, knowledge));

  CollectingSink sink;
  auto renames_for = [&](const ProgramContract& contract) {
    Expected<RenameMap> renames = diff_renames(report, options.after, contract);
    if (renames.ok()) return std::move(renames).value();
    report.mapping_errors.push_back(renames.message());
    return RenameMap{};
  };
  diff_program_sets(report.before_contracts, report.after_contracts, renames_for, sink);
  // Below the signatures: the nodes of each pair of programs, paired as diff_program_sets pairs them.
  const auto& bp = report.before.programs;
  const auto& ap = report.after.programs;
  for (std::size_t i = 0; i < bp.size(); ++i) {
    for (std::size_t j = 0; j < ap.size(); ++j) {
      if (!(bp.size() == 1 && ap.size() == 1) && bp[i].name() != ap[j].name()) continue;
      Expected<RenameMap> renames = diff_renames(report, options.after, report.after_contracts[j]);
      diff_nodes(bp[i], ap[j], report.before_contracts[i], report.after_contracts[j],
                 renames.ok() ? renames.value() : RenameMap{}, options.opt_in, sink);
    }
  }
  if (!report.mapping_errors.empty()) {
    report.outcome = DiffOutcome::kBadRecordedRenames;
    return report;
  }
  report.findings = sink.take();
  report.verdict = verdict_of(report.findings);
  return report;
}

}  // namespace pt2lint
