// PT310 unknown-op-may-write-state: state is passed to an op whose schema pt2lint does not know, so
// it cannot tell whether the op writes it (see src/analysis/dataflow/possible_writes.h).
// docs/rules/unknown-op-may-write-state.md
#include <fmt/format.h>

#include <set>

#include "analysis/dataflow/op_effects.h"
#include "analysis/dataflow/possible_writes.h"
#include "analysis/dataflow/program_dataflow.h"
#include "analysis/dataflow/subgraph_calls.h"
#include "analysis/dataflow/triton_kernels.h"
#include "analysis/opschema/schema_template.h"
#include "analysis/program_index.h"
#include "core/rule.h"
#include "core/rule_catalogue.h"

namespace pt2lint {
namespace {

// Whether subgraph-writes-decidable (PT311) already reports every one of `nodes`: a known
// subgraph call (its body's writes are followed), or a call whose body writes an input while
// pt2lint cannot place the write (`covered`, from subgraph_call_writes).
bool reported_by_subgraph_rule(const ProgramIndex& index, dataflow::NodeOps& ops, const std::vector<int>& nodes,
                               const std::set<int>& covered) {
  for (int node : nodes)
    if (!covered.count(node) && !dataflow::unknown_effects(index, ops, node, index.dialect()).empty()) return false;
  return dataflow::only_subgraph_calls(index, nodes);
}

// The schema type of a Triton launch parameter, for the declaration template.
std::string_view parameter_type(const ir::Node& launch, std::string_view param, std::string_view tensor) {
  if (!tensor.empty()) return "Tensor";
  for (const ir::NamedArgument& input : launch.inputs()) {
    if (input.name() != "kwargs" || !input.arg().has_as_string_to_argument()) continue;
    for (const ir::StringToArgumentEntry& entry : input.arg().as_string_to_argument().items()) {
      if (entry.key() != param) continue;
      if (entry.value().has_as_float()) return "float";
      if (entry.value().has_as_bool()) return "bool";
    }
  }
  return "int";
}

class UnknownOpMayWriteState final : public Rule {
 public:
  const RuleInfo& info() const override { return kUnknownOpMayWriteState; }

  void check(const ProgramIndex& index, DiagnosticSink& sink) const override {
    dataflow::ProgramDataflow flow(index);
    const std::vector<dataflow::PossibleWrite> writes =
        dataflow::possible_writes(index, flow.ops(), flow.tracer(), index.op_knowledge().report_parameters);
    if (writes.empty()) return;
    std::set<int> covered;
    if (!index.subgraph_nodes().empty())
      for (const dataflow::UndecidableWrite& w : dataflow::subgraph_call_writes(index, flow.tracer()).possible)
        covered.insert(w.node);
    for (const dataflow::PossibleWrite& write : writes) {
      // State only subgraph calls may write is subgraph-writes-decidable's (PT311) finding.
      if (reported_by_subgraph_rule(index, flow.ops(), write.nodes, covered)) continue;
      report(flow, write, sink);
    }
  }

 private:
  void report(dataflow::ProgramDataflow& flow, const dataflow::PossibleWrite& write, DiagnosticSink& sink) const {
    const ProgramIndex& index = flow.index();
    std::size_t pick = 0;
    std::string why;
    for (std::size_t k = 0; k < write.nodes.size(); ++k) {  // the first node whose own effects are unknown
      why = dataflow::unknown_effects(index, flow.ops(), write.nodes[k], index.dialect());
      if (!why.empty()) {
        pick = k;
        break;
      }
    }
    const int node = write.nodes[pick];
    const std::string_view value = write.values[pick];
    const ir::Node& first = index.graph().nodes(node);
    const bool triton = dataflow::is_triton_mutation(first.target());
    std::string what = why.empty() ? flow.describe_node(node) : fmt::format("{}, {}", flow.describe_node(node), why);
    auto finding = emit(sink, kUnknownOpMayWriteState, index.name(),
                        fmt::format("{} is passed to {}: pt2lint cannot tell whether the op writes it",
                                    flow.describe_state(write.placeholder), what));
    finding.at_node(std::string(index.node_name(node)))
        .at_value(std::string(value))
        .op(first.target())
        .state(std::string(write.target));
    if (value != index.placeholder_names()[write.placeholder])
      finding.note(fmt::format("`{}` is a view of {}", value, flow.describe_state(write.placeholder)));
    if (write.nodes.size() > 1)
      finding.note(fmt::format("{} nodes of unknown ops receive it", write.nodes.size()));
    finding.note(
        "if the op writes it, the effective mutation set, `pt2lint diff` and `pt2lint lower` depend on that "
        "write: pt2lint reports this state as \"may be written\", diff calls it undecidable (exit 3) and lower "
        "refuses the program");
    if (triton) {
      const dataflow::TritonLaunch launch = dataflow::decode_triton_launch(first);
      std::string params;
      for (const auto& [param, value] : launch.params)
        params += fmt::format("{}{} {}", params.empty() ? "" : ", ", parameter_type(first, param, value), param);
      finding.fix(fmt::format(
          "declare which parameters the kernel writes: add `triton::KERNEL_NAME({}) -> ()` to a file passed with "
          "--op-schemas (or the config key `op-schemas`), marking each written tensor `Tensor(a!)`; "
          "`pt2lint.check(ep)` declares it from the live process",
          params));
      return;
    }
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
