#include "verifier/dataflow/dataflow_summary.h"

#include "verifier/dataflow/effective_mutations.h"
#include "verifier/program_index.h"
#include "verifier/state/state_storage.h"

namespace pt2lint::dataflow {

void summarize_dataflow(const ProgramIndex& index, ProgramSummary& summary) {
  NodeOps ops(index);
  ValueTracer tracer(index, ops);
  for (const StateWrite& write : effective_mutations(index, ops, tracer)) {
    MutationSummary mutation;
    mutation.target = std::string(write.target);
    mutation.kind = std::string(write.kind);
    for (int node : write.nodes) mutation.nodes.emplace_back(index.node_name(node));
    if (write.kind != "user_input" && index.storage().has_aliases())
      for (std::string_view alias : index.storage().aliases_of(write.target))
        mutation.aliases.emplace_back(alias);
    summary.mutations.push_back(std::move(mutation));
  }
  for (std::string_view target : ops.unknown_targets()) summary.unknown_ops.emplace_back(target);
}

}  // namespace pt2lint::dataflow
