// PT311 subgraph-writes-decidable: state is passed to a higher-order op whose subgraph writes its
// inputs, and pt2lint cannot tell which of the values passed in the write reaches (an op it does
// not know, or operands that do not fit the subgraph). Sound, not silent: the state may be written.
// docs/rules/subgraph-writes-decidable.md
#include <fmt/format.h>

#include "analysis/dataflow/program_dataflow.h"
#include "analysis/dataflow/subgraph_calls.h"
#include "analysis/program_index.h"
#include "core/rule.h"
#include "core/rule_catalogue.h"

namespace pt2lint {
namespace {

class SubgraphWritesDecidable final : public Rule {
 public:
  const RuleInfo& info() const override { return kSubgraphWritesDecidable; }

  void check(const ProgramIndex& index, DiagnosticSink& sink) const override {
    if (index.subgraph_nodes().empty()) return;
    dataflow::ProgramDataflow flow(index);
    const dataflow::SubgraphWrites writes = dataflow::subgraph_call_writes(index, flow.tracer());
    for (const dataflow::UndecidableWrite& write : writes.possible) {
      if (write.placeholder < 0) continue;
      const dataflow::PlaceholderState state = flow.state(write.placeholder);
      if (state.kind != StateKind::kBuffer && state.kind != StateKind::kUserInput &&
          state.kind != StateKind::kParameter && state.kind != StateKind::kTensorConstant)
        continue;
      report(flow, write, state, sink);
    }
  }

 private:
  void report(dataflow::ProgramDataflow& flow, const dataflow::UndecidableWrite& write,
              const dataflow::PlaceholderState& state, DiagnosticSink& sink) const {
    const ProgramIndex& index = flow.index();
    auto finding = emit(sink, kSubgraphWritesDecidable, index.name(),
                        fmt::format("{} is passed to {} as `{}`, and pt2lint cannot tell whether the "
                                    "call writes it: {}",
                                    flow.describe_state(write.placeholder), flow.describe_node(write.node),
                                    write.value, write.reason));
    finding.at_node(std::string(index.node_name(write.node)))
        .op(index.graph().nodes(write.node).target())
        .state(std::string(state.target));
    finding.note(
        "its effective mutation set, its contract and any lowering are undecidable for this state: "
        "if the subgraph's write reaches it, a lowering that gives it no write-back silently "
        "freezes it; if it does not, a write-back would be spurious");
    finding.note(
        "pt2lint knows the subgraph bindings of wrap_with_set_grad_enabled, wrap_with_autocast, "
        "cond, while_loop, map_impl, scan, associative_scan, invoke_subgraph and flex_attention");
    finding.fix(
        "export with torch.export so that the region becomes one of the known higher-order ops, or "
        "do the write outside the region (on the caller's state) so that it is visible at top level");
  }
};

}  // namespace

std::unique_ptr<Rule> make_SubgraphWritesDecidable() {
  return std::make_unique<SubgraphWritesDecidable>();
}

}  // namespace pt2lint
