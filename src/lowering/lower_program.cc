#include "lowering/lower_program.h"

#include <filesystem>
#include <utility>

#include <fmt/format.h>

#include "analysis/opschema/schema_catalog.h"
#include "contract/mutation_contract.h"
#include "lowering/functionalize.h"
#include "lowering/self_check.h"
#include "lowering/unmodelled_effects.h"
#include "support/temp_file.h"

namespace pt2lint::lowering {
namespace {

// Writes the lowered programs to `options.output`. `-o -`: the writers seek, so the program
// goes to a temporary file first, then to the stream.
Status write_output(const LowerOptions& options, const std::vector<ir::Program>& programs, bool renamed) {
  if (options.output != "-")
    return write_lowered(options.input, programs, options.output, options.format, renamed);
  Expected<TempFile> staged = TempFile::create(std::filesystem::path(options.input).extension().string());
  if (!staged.ok()) return staged.status();
  if (Status written = write_lowered(options.input, programs, staged->path(), options.format, renamed);
      !written.ok())
    return written;
  return copy_file_to_stream(staged->path(), *options.standard_output);
}

bool is_joint_program(const ir::Program& program) {
  for (const ir::OutputSpec& spec : program.program().graph_module().signature().output_specs())
    if (spec.has_loss_output() || spec.has_gradient_to_parameter() || spec.has_gradient_to_user_input()) return true;
  return false;
}

// A joint program's gradients must come through the lowering unchanged: the same inputs, each
// with the same shape and dtype, in the same order (what `diff` compares, PT415-PT417).
Status gradients_kept(const std::vector<GradientPromise>& source, const ir::Program& lowered) {
  const std::vector<GradientPromise> now = derive_contract(lowered).gradients;
  if (now == source) return {};
  return Status::error(fmt::format("joint program: the lowering would change its gradients ({} in the source, {} "
                                   "after it, or another input, shape or dtype); not lowered",
                                   source.size(), now.size()));
}

}  // namespace

Expected<ProgramLowering> lower_in_memory(ir::Program& program, const LowerSettings& settings) {
  if (Status modelled = unmodelled_effects(program, settings.schemas, settings.input); !modelled.ok())
    return modelled;
  const bool joint = is_joint_program(program);
  std::vector<GradientPromise> gradients;
  if (joint) gradients = derive_contract(program).gradients;
  const Expected<Functionalized> functional = functionalize(program, /*whole_program=*/true, settings.schemas);
  if (!functional.ok()) return functional.status();
  ProgramLowering lowering{program.name(), functional->writes, std::nullopt};
  if (settings.rename_nested) {
    Renames renames = plan_nested_buffer_renames(program);
    apply_renames(program, renames);
    record_renames(program, renames);
    lowering.renames = std::move(renames);
  }
  if (joint) {
    if (Status kept = gradients_kept(gradients, program); !kept.ok()) return kept;
  }
  // Never hand back a program pt2lint did not functionalize: check the result as ATEN first.
  if (Status checked = self_check(program, settings.schemas); !checked.ok())
    return Status::error(checked.message() + "; nothing was written");
  return lowering;
}

LowerReport lower_program(const LowerOptions& options) {
  LowerReport report;
  report.input = load_programs(options.input);
  if (!report.input.readable || report.input.has_errors() || report.input.programs.empty()) return report;
  opschema::SchemaCatalog schemas;
  for (const std::string& path : options.op_schemas)
    for (std::string& problem : schemas.add_file(path)) report.schema_problems.push_back(std::move(problem));
  if (!report.schema_problems.empty()) {
    report.outcome = LowerOutcome::kBadOpSchemas;
    return report;
  }
  const LowerSettings settings{&schemas, options.input, options.rename_nested};
  bool renamed = false;
  for (ir::Program& program : report.input.programs) {
    Expected<ProgramLowering> lowered = lower_in_memory(program, settings);
    if (!lowered.ok()) {
      report.outcome = LowerOutcome::kRefused;
      report.error = fmt::format("{}:{}: cannot lower: {}", options.input, program.name(), lowered.message());
      return report;
    }
    renamed = renamed || (lowered->renames && !lowered->renames->empty());
    report.lowered.push_back(std::move(lowered).value());
  }
  if (Status written = write_output(options, report.input.programs, renamed); !written.ok()) {
    report.outcome = LowerOutcome::kNotWritten;
    report.error = written.message();
    return report;
  }
  report.outcome = LowerOutcome::kLowered;
  return report;
}

}  // namespace pt2lint::lowering
