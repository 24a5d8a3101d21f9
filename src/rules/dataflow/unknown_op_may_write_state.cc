// PT310: state is passed to an op whose schema pt2lint does not know, so it cannot tell
// whether the op writes it (see src/analysis/dataflow/possible_writes.h).
#include <fmt/format.h>

#include "analysis/dataflow/possible_writes.h"
#include "analysis/dataflow/program_dataflow.h"
#include "analysis/dataflow/subgraph_calls.h"
#include "analysis/opschema/schema_template.h"
#include "analysis/program_index.h"
#include "core/rule.h"
#include "core/rule_catalogue.h"

namespace pt2lint {
namespace {

class UnknownOpMayWriteState final : public Rule {
 public:
  const RuleInfo& info() const override { return kUnknownOpMayWriteState; }

  void check(const ProgramIndex& index, DiagnosticSink& sink) const override {
    dataflow::ProgramDataflow flow(index);
    for (const dataflow::PossibleWrite& write :
         dataflow::possible_writes(index, flow.ops(), flow.tracer(), index.op_knowledge().report_parameters)) {
      // State only higher-order ops may write is subgraph-writes-decidable's (PT311) finding.
      if (dataflow::only_subgraph_calls(index, write.nodes)) continue;
      report(flow, write, sink);
    }
  }

 private:
  void report(dataflow::ProgramDataflow& flow, const dataflow::PossibleWrite& write, DiagnosticSink& sink) const {
    const ProgramIndex& index = flow.index();
    const int node = write.nodes.front();
    const ir::Node& first = index.graph().nodes(node);
    const bool hop = index.dialect() != Dialect::kTraining;
    std::string what = hop ? fmt::format("{}, whose auto_functionalized encoding pt2lint cannot read",
                                         flow.describe_node(node))
                           : fmt::format("{}, whose schema pt2lint does not know", flow.describe_node(node));
    auto finding = emit(sink, kUnknownOpMayWriteState, index.name(),
                        fmt::format("{} is passed to {}: pt2lint cannot tell whether the op writes it",
                                    flow.describe_state(write.placeholder), what));
    finding.at_node(std::string(index.node_name(node)))
        .at_value(std::string(write.values.front()))
        .op(first.target())
        .state(std::string(write.target));
    if (write.values.front() != index.placeholder_names()[write.placeholder])
      finding.note(fmt::format("`{}` is a view of {}", write.values.front(), flow.describe_state(write.placeholder)));
    if (write.nodes.size() > 1)
      finding.note(fmt::format("{} nodes of unknown ops receive it", write.nodes.size()));
    finding.note(
        "if the op writes it, the effective mutation set, `pt2lint diff` and `pt2lint lower` depend on that "
        "write: pt2lint reports this state as \"may be written\", diff calls it undecidable (exit 3) and lower "
        "refuses the program");
    std::string line = opschema::schema_template(first);
    finding.fix(fmt::format("declare the op's schema: print `torch.ops.{}._schema` and put it in a file passed "
                            "with --op-schemas (or the config key `op-schemas`), marking written arguments "
                            "`Tensor(a!)`; `pt2lint schemas --missing FILE` prints a template{}",
                            flow.short_target(node).substr(0), line.empty() ? "" : ": `" + line + "`"));
  }
};

}  // namespace

std::unique_ptr<Rule> make_UnknownOpMayWriteState() { return std::make_unique<UnknownOpMayWriteState>(); }

}  // namespace pt2lint
