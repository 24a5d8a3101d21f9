#include "analysis/dataflow/dataflow_summary.h"

#include "analysis/dataflow/effective_mutations.h"
#include "analysis/dataflow/possible_writes.h"
#include "analysis/program_index.h"
#include "analysis/state/initial_state.h"
#include "analysis/state/state_storage.h"

namespace pt2lint::dataflow {

void summarize_dataflow(const ProgramIndex& index, ProgramSummary& summary) {
  NodeOps ops(index);
  ValueTracer tracer(index, ops);
  for (const StateWrite& write : effective_mutations(index, ops, tracer)) {
    MutationSummary mutation;
    mutation.target = std::string(write.target);
    mutation.kind = write.kind;
    for (int node : write.nodes) mutation.nodes.emplace_back(index.node_name(node));
    if (write.kind != StateKind::kUserInput && index.storage().has_aliases())
      for (std::string_view alias : index.storage().aliases_of(write.target))
        mutation.aliases.emplace_back(alias);
    mutation.initial_value = initial_value_key(initial_state_fact(index, ops, write).verdict);
    summary.mutations.push_back(std::move(mutation));
  }
  for (std::string_view target : ops.unknown_targets()) summary.unknown_ops.emplace_back(target);
  for (const PossibleWrite& write :
       possible_writes(index, ops, tracer, index.op_knowledge().report_parameters)) {
    MutationSummary mutation;
    mutation.target = std::string(write.target);
    mutation.kind = write.kind;
    for (int node : write.nodes) {
      mutation.nodes.emplace_back(index.node_name(node));
      std::string_view target = index.graph().nodes(node).target();
      if (target.starts_with("torch.ops.")) target.remove_prefix(10);
      mutation.ops.emplace_back(target);
    }
    summary.possible_mutations.push_back(std::move(mutation));
  }
}

}  // namespace pt2lint::dataflow
