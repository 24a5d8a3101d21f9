#include "properties/reference_lower.h"

#include "analysis/dataflow/possible_writes.h"
#include "analysis/dataflow/program_dataflow.h"
#include "analysis/dataflow/subgraph_calls.h"
#include "analysis/program_index.h"
#include "lowering/functionalize.h"
#include "lowering/self_check.h"

namespace pt2lint::properties {

std::optional<ir::Program> reference_lower(const ir::Program& program, std::string& why) {
  {
    ProgramIndex index(program);
    dataflow::ProgramDataflow flow(index);
    for (const dataflow::PossibleWrite& write : dataflow::possible_writes(index, flow.ops(), flow.tracer(), false)) {
      if (dataflow::only_subgraph_calls(index, write.nodes)) continue;
      why = "state passed to an op of unknown schema";
      return std::nullopt;
    }
  }
  ir::Program lowered = program;
  const lowering::FunctionalizeResult result = lowering::functionalize(lowered, /*whole_program=*/true);
  if (!result.ok) {
    why = result.error;
    return std::nullopt;
  }
  if (std::string problem = lowering::self_check(lowered); !problem.empty()) {
    why = std::move(problem);
    return std::nullopt;
  }
  return lowered;
}

}  // namespace pt2lint::properties
