// PT305 constants-are-not-written: a tensor constant written in place (or updated functionally);
// parameters written in place in a TRAINING program are noted, since that is legal there.
// docs/rules/constants-are-not-written.md
#include <fmt/format.h>

#include <algorithm>
#include <map>

#include "analysis/dataflow/effective_mutations.h"
#include "analysis/dataflow/program_dataflow.h"
#include "analysis/program_index.h"
#include "analysis/state/state_storage.h"
#include "core/rule.h"
#include "core/rule_catalogue.h"

namespace pt2lint {
namespace {

struct ConstantWrites {
  std::vector<int> nodes;  // graph order
  bool through_view = false;
};

void add_node(ConstantWrites& writes, int node) {
  for (int n : writes.nodes)
    if (n == node) return;
  writes.nodes.push_back(node);
}

// transformers' static cache writes come from its cache_utils / integrations code.
bool from_transformers(const ProgramIndex& index, int node) {
  return index.node_metadata(node, "stack_trace").find("transformers") != std::string_view::npos ||
         index.node_metadata(node, "nn_module_stack").find("transformers") != std::string_view::npos;
}

class ConstantsAreNotWritten final : public Rule {
 public:
  const RuleInfo& info() const override { return kConstantsAreNotWritten; }

  void check(const ProgramIndex& index, DiagnosticSink& sink) const override {
    dataflow::ProgramDataflow flow(index);
    std::map<int, ConstantWrites> constants;
    std::map<int, ConstantWrites> parameters;
    for (const dataflow::InPlaceWrite& write : dataflow::in_place_writes(index, flow.ops(), flow.tracer())) {
      if (write.placeholder < 0) continue;
      const StateKind kind = flow.state(write.placeholder).kind;
      bool view = write.value != index.placeholder_names()[write.placeholder];
      if (kind == StateKind::kTensorConstant) {
        add_node(constants[write.placeholder], write.node);
        constants[write.placeholder].through_view |= view;
      } else if (kind == StateKind::kParameter && index.dialect() == Dialect::kTraining) {
        add_node(parameters[write.placeholder], write.node);
      }
    }
    // A functional update of a constant (decomposed from an in-place write) is a write too.
    // The sweep traces every value, so it runs only when there are constants to update.
    bool has_constants = false;
    for (const ir::InputSpec& spec : index.signature().input_specs())
      has_constants = has_constants || spec.has_tensor_constant();
    const ir::Graph& graph = index.graph();
    for (int n = 0; has_constants && n < graph.nodes_size(); ++n) {
      if (!flow.tracer().may_update(n)) continue;
      for (const ir::Argument& output : graph.nodes(n).outputs()) {
        if (!output.has_as_tensor()) continue;
        const dataflow::Trace& trace = flow.tracer().update_origin(output.as_tensor().name());
        if (!trace.updated || trace.update_node != n) continue;
        if (flow.state(trace.placeholder).kind == StateKind::kTensorConstant) add_node(constants[trace.placeholder], n);
      }
    }
    for (auto& [placeholder, writes] : constants) {
      std::sort(writes.nodes.begin(), writes.nodes.end());
      report_constant(flow, placeholder, writes, sink);
    }
    for (const auto& [placeholder, writes] : parameters) note_parameter(flow, placeholder, writes, sink);
  }

 private:
  void report_constant(dataflow::ProgramDataflow& flow, int placeholder, const ConstantWrites& writes,
                       DiagnosticSink& sink) const {
    const ProgramIndex& index = flow.index();
    dataflow::PlaceholderState state = flow.state(placeholder);
    int first = writes.nodes.front();
    auto finding = emit(sink, kConstantsAreNotWritten, index.name(),
                        fmt::format("tensor constant `{}` is written{} by {}", state.target,
                                    writes.through_view ? " (through a view or alias)" : "",
                                    flow.describe_node(first)));
    finding.at_node(std::string(index.node_name(first)))
        .at_input_spec(state.input_spec)
        .op(index.graph().nodes(first).target())
        .state(std::string(state.target));
    for (std::size_t i = 1; i < writes.nodes.size(); ++i)
      finding.note(fmt::format("also written by {}", flow.describe_node(writes.nodes[i])));
    finding.note(fmt::format("`{}` is the placeholder of tensor constant `{}`", state.placeholder, state.target));
    finding.note(
        "a tensor constant has no write-back: run_decompositions() and to_edge() refuse the "
        "program (\"Constant ... is mutated in the forward method. Pls register it as buffer\"), "
        "and backends that fold or embed constants freeze the value, so the state never changes "
        "between calls");
    const StateStorage& storage = index.storage();
    if (storage.has_aliases() && storage.aliased(state.target)) {
      finding.note(fmt::format("the constant's storage is also {} ({}): the write lands in that "
                               "state's tensor, but under a name that has no write-back",
                               describe_aliases(index, state.target), storage.why_shared(state.target)));
    }
    bool transformers = false;
    for (int node : writes.nodes) transformers = transformers || from_transformers(index, node);
    if (transformers) {
      finding.note(
          "this is a transformers static cache: the cache tensors were not registered as "
          "buffers, so export lifted them as constants while the declared key_cache_N / "
          "value_cache_N buffer placeholders are never read or written");
      finding.fix(
          "register the cache tensors as buffers (register_buffer(name, tensor, persistent=False) "
          "on the exported module, for each layer's keys and values) so that the writes land in "
          "buffers and functionalization gives them write-backs");
    } else {
      finding.fix(fmt::format("register `{}` as a buffer (module.register_buffer(...)) instead of "
                              "keeping a plain tensor attribute, so export lifts it as mutable state",
                              state.target));
    }
  }

  void note_parameter(dataflow::ProgramDataflow& flow, int placeholder, const ConstantWrites& writes,
                      DiagnosticSink& sink) const {
    const ProgramIndex& index = flow.index();
    dataflow::PlaceholderState state = flow.state(placeholder);
    int first = writes.nodes.front();
    emit(sink, kConstantsAreNotWritten, index.name(),
         fmt::format("parameter `{}` is written in place by {}; legal in a TRAINING program, "
                     "where functionalization turns it into a parameter_mutation output",
                     state.target, flow.describe_node(first)))
        .severity(Severity::kNote)
        .at_node(std::string(index.node_name(first)))
        .op(index.graph().nodes(first).target())
        .state(std::string(state.target));
  }
};

}  // namespace

std::unique_ptr<Rule> make_ConstantsAreNotWritten() {
  return std::make_unique<ConstantsAreNotWritten>();
}

}  // namespace pt2lint
