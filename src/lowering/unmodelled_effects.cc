#include "lowering/unmodelled_effects.h"

#include <fmt/format.h>

#include "analysis/dataflow/op_effects.h"
#include "analysis/dataflow/possible_writes.h"
#include "analysis/dataflow/program_dataflow.h"
#include "analysis/dataflow/subgraph_calls.h"
#include "analysis/dataflow/triton_kernels.h"
#include "analysis/program_index.h"

namespace pt2lint::lowering {

Status unmodelled_effects(const ir::Program& program, const opschema::SchemaCatalog* schemas,
                          const std::string& input) {
  ProgramIndex index(program);
  index.set_op_knowledge({schemas, false});
  dataflow::ProgramDataflow flow(index);
  for (int n = 0; n < index.graph().nodes_size(); ++n) {
    if (!dataflow::is_triton_mutation(index.graph().nodes(n).target())) continue;
    return Status::error(fmt::format("{} launches a user Triton kernel; pt2lint does not lower Triton launches "
                                     "(PyTorch 2.11 cannot load the functional form back), so lower the program "
                                     "with `ep.run_decompositions()` in the exporting process",
                                     flow.describe_node(n)));
  }
  // Parameters too: a lowering must not drop a write to any state.
  for (const dataflow::PossibleWrite& write : dataflow::possible_writes(index, flow.ops(), flow.tracer(), true)) {
    int node = -1;
    std::string why;
    for (int candidate : write.nodes) {
      why = dataflow::check_effects_known(index, flow.ops(), candidate, index.dialect()).message();
      if (!why.empty()) {
        node = candidate;
        break;
      }
    }
    if (node < 0) {
      // Only subgraph calls: their bodies may write it (an op of unknown effects inside, or a
      // binding pt2lint cannot place). Lowering would keep such a body as it is: refuse.
      std::string reason;
      for (const dataflow::UndecidableWrite& w : dataflow::subgraph_call_writes(index, flow.tracer()).possible)
        if (w.placeholder == write.placeholder && reason.empty()) reason = w.reason;
      const int call = write.nodes.front();
      return Status::error(fmt::format("{} is passed to node '{}' ({}), and pt2lint cannot tell whether the call "
                                       "writes it: {}",
                                       flow.describe_state(write.placeholder), index.node_name(call),
                                       flow.short_target(call), reason));
    }
    const bool schema = why == dataflow::kUnknownSchema;
    return Status::error(fmt::format(
        "{} is passed to {}, {}, so it cannot tell whether the op writes it{}", flow.describe_state(write.placeholder),
        flow.describe_node(node), why,
        schema ? fmt::format("; declare the schema with --op-schemas (`pt2lint schemas --missing {}` prints a template)",
                             input)
               : ""));
  }
  return {};
}

}  // namespace pt2lint::lowering
