// PT304 no-mutating-ops-in-functional-dialect: a program that declares the functional ATEN dialect
// but writes in place.
// docs/rules/no-mutating-ops-in-functional-dialect.md
#include <fmt/format.h>

#include "analysis/dataflow/effective_mutations.h"
#include "analysis/dataflow/program_dataflow.h"
#include "analysis/program_index.h"
#include "core/rule.h"
#include "core/rule_catalogue.h"

namespace pt2lint {
namespace {

class NoMutatingOpsInFunctionalDialect final : public Rule {
 public:
  const RuleInfo& info() const override { return kNoMutatingOpsInFunctionalDialect; }

  void check(const ProgramIndex& index, DiagnosticSink& sink) const override {
    if (index.dialect() != Dialect::kAten) return;
    dataflow::ProgramDataflow flow(index);
    std::vector<dataflow::InPlaceWrite> writes =
        dataflow::in_place_writes(index, flow.ops(), flow.tracer());
    for (std::size_t i = 0; i < writes.size(); ++i) {
      // One finding per node, naming every argument it writes.
      if (i > 0 && writes[i].node == writes[i - 1].node) continue;
      report(flow, writes, i, sink);
    }
  }

 private:
  void report(dataflow::ProgramDataflow& flow, const std::vector<dataflow::InPlaceWrite>& writes,
              std::size_t first, DiagnosticSink& sink) const {
    const ProgramIndex& index = flow.index();
    const dataflow::InPlaceWrite& write = writes[first];
    const opschema::OpSchema* schema = flow.ops().schema(write.node);
    std::string arguments;
    for (std::size_t i = first; i < writes.size() && writes[i].node == write.node; ++i) {
      if (!arguments.empty()) arguments += ", ";
      if (writes[i].via.empty()) {
        arguments += fmt::format("`{}` (`{}`)", writes[i].argument, writes[i].value);
      } else {  // a write inside a subgraph, to an input bound to `value`
        arguments += fmt::format("`{}` inside its subgraph `{}` ({})", writes[i].value, writes[i].argument,
                                 writes[i].via);
      }
    }
    auto finding = emit(sink, kNoMutatingOpsInFunctionalDialect, index.name(),
                        fmt::format("{} writes {} in place, but the program declares the ATEN "
                                    "(functional) dialect",
                                    flow.describe_node(write.node), arguments));
    finding.at_node(std::string(index.node_name(write.node))).op(index.graph().nodes(write.node).target());
    if (write.placeholder >= 0) {
      finding.state(std::string(flow.state(write.placeholder).target));
      finding.note(fmt::format("`{}` is the storage of {}", write.value, flow.describe_state(write.placeholder)));
    }
    if (schema != nullptr && !schema->is_mutable())
      finding.note(fmt::format("`{}` declares no `(a!)`, but writes `{}` when called this way (see "
                               "pt2lint's table of undeclared writes)",
                               schema->name(), write.argument));
    finding.note(
        "passes and backends trust the dialect: an ATEN graph is taken to be free of in-place "
        "writes, so nodes are reordered, deduplicated or dropped as pure computations and the "
        "write is lost or lands at the wrong time; state updates belong in mutation outputs");
    std::optional<opschema::OpSchema> twin = schema ? schema->functional_twin() : std::nullopt;
    if (twin) {
      finding.fix(fmt::format("call the functional twin `{}{}{}` and write its result back with a "
                              "mutation output, or re-run run_decompositions() on the TRAINING program",
                              twin->name(), twin->overload().empty() ? "" : ".", twin->overload()));
    } else {
      finding.fix("re-run run_decompositions() on the TRAINING program so that functionalization "
                  "turns the write into a functional op plus a mutation output");
    }
  }
};

}  // namespace

std::unique_ptr<Rule> make_NoMutatingOpsInFunctionalDialect() {
  return std::make_unique<NoMutatingOpsInFunctionalDialect>();
}

}  // namespace pt2lint
