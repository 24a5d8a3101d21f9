// PT303 buffer-write-has-write-back: a functional program updates a buffer or user input but never
// writes it back.
// docs/rules/buffer-write-has-write-back.md
#include <fmt/format.h>

#include <map>

#include "analysis/dataflow/effective_mutations.h"
#include "analysis/dataflow/program_dataflow.h"
#include "analysis/dataflow/tensor_meta_text.h"
#include "analysis/program_index.h"
#include "core/rule.h"
#include "core/rule_catalogue.h"

namespace pt2lint {
namespace {

struct LostUpdate {
  std::vector<int> nodes;          // update nodes, graph order
  std::string_view last_value;     // the last update's value: what should be written back
};

class BufferWriteHasWriteBack final : public Rule {
 public:
  const RuleInfo& info() const override { return kBufferWriteHasWriteBack; }

  void check(const ProgramIndex& index, DiagnosticSink& sink) const override {
    // In a TRAINING program an in-place write is its own write-back; an undeclared dialect
    // says nothing about which form writes take.
    if (index.dialect() == Dialect::kTraining || index.dialect() == Dialect::kUnknown) return;
    dataflow::ProgramDataflow flow(index);
    std::vector<bool> written_back(index.placeholder_names().size(), false);
    for (const dataflow::ResolvedWriteBack& write_back : dataflow::resolved_write_backs(index))
      written_back[write_back.target] = true;

    std::map<int, LostUpdate> lost;  // by placeholder, so findings come in input order
    const ir::Graph& graph = index.graph();
    for (int n = 0; n < graph.nodes_size(); ++n) {
      if (!flow.tracer().may_update(n)) continue;
      // An in-place write does change the state at run time; in this dialect it is
      // no-mutating-ops-in-functional-dialect's finding, not a lost update.
      if (const opschema::OpSchema* schema = flow.ops().schema(n); schema && schema->is_mutable()) continue;
      for (const ir::Argument& output : graph.nodes(n).outputs()) {
        if (!output.has_as_tensor()) continue;
        std::string_view value = output.as_tensor().name();
        const dataflow::Trace& trace = flow.tracer().update_origin(value);
        if (!trace.updated || trace.update_node != n || written_back[trace.placeholder]) continue;
        const StateKind kind = flow.state(trace.placeholder).kind;
        if (kind != StateKind::kBuffer && kind != StateKind::kUserInput) continue;
        LostUpdate& entry = lost[trace.placeholder];
        entry.nodes.push_back(n);
        entry.last_value = value;
      }
    }
    for (const auto& [placeholder, update] : lost) report(flow, placeholder, update, sink);
  }

 private:
  void report(dataflow::ProgramDataflow& flow, int placeholder, const LostUpdate& update,
              DiagnosticSink& sink) const {
    const ProgramIndex& index = flow.index();
    dataflow::PlaceholderState state = flow.state(placeholder);
    int last = update.nodes.back();
    std::string spec_kind(mutation_spec_kind(state.kind));  // a buffer or a user input
    auto finding = emit(sink, kBufferWriteHasWriteBack, index.name(),
                        fmt::format("{} is updated by {}, but the program has no {} output for it: "
                                    "the new value is computed and thrown away",
                                    flow.describe_state(placeholder), flow.describe_node(last), spec_kind));
    finding.at_node(std::string(index.node_name(last)))
        .at_value(std::string(update.last_value))
        .op(index.graph().nodes(last).target())
        .state(std::string(state.target));
    for (std::string& note : flow.chain_notes(flow.tracer().chain(update.last_value, true)))
      finding.note(std::move(note));
    if (update.nodes.size() > 1)
      finding.note(fmt::format("{} nodes update it; the last one is {}", update.nodes.size(),
                               flow.describe_node(last)));
    finding.note(fmt::format(
        "PyTorch loads and runs this program, but {} keeps its old value after every call: the "
        "state silently stops changing. A lowering pass that drops an orphaned copy_ leaves "
        "exactly this",
        flow.describe_state(placeholder)));
    // The last update wrote a view of the state (`buf[0].add_(x)`): its value is the view's,
    // of another shape, and the graph names the state's whole new value only if something
    // wrote the view back, which the dataflow did not see. Writing back the view's value
    // would be a wrong fix (PyTorch refuses the shape, or a backend copies a slice over it).
    const ir::TensorMeta* state_meta = index.tensor_meta(index.placeholder_names()[placeholder]);
    const ir::TensorMeta* value_meta = index.tensor_meta(update.last_value);
    if (state_meta != nullptr && value_meta != nullptr &&
        dataflow::meta_text(*state_meta) != dataflow::meta_text(*value_meta) &&
        flow.tracer().updates_a_view(update.last_value)) {
      finding.fix(fmt::format("`{}` {} is the new value of a view of {} {}, not of the whole state: write "
                              "back, as its {} output, the state's whole new value (the view written back "
                              "into it, e.g. by a slice_scatter or select_scatter of `{}`)",
                              update.last_value, dataflow::meta_text(*value_meta), flow.describe_state(placeholder),
                              dataflow::meta_text(*state_meta), spec_kind, update.last_value));
      return;
    }
    std::string field = state.kind == StateKind::kBuffer ? "buffer_name" : "user_input_name";
    finding.fix(fmt::format("add `{}` to the graph outputs before the user outputs, with the output "
                            "spec {}",
                            update.last_value, spec_kind),
                fmt::format("{{\"{}\": {{\"arg\": {{\"name\": \"{}\"}}, \"{}\": \"{}\"}}}}", spec_kind,
                            update.last_value, field, state.target));
  }
};

}  // namespace

std::unique_ptr<Rule> make_BufferWriteHasWriteBack() {
  return std::make_unique<BufferWriteHasWriteBack>();
}

}  // namespace pt2lint
