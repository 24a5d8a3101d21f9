// PT301 mutation-value-derives-from-target: a write-back whose value is the update of a different
// placeholder.
// docs/rules/mutation-value-derives-from-target.md
#include <fmt/format.h>

#include "analysis/dataflow/effective_mutations.h"
#include "analysis/dataflow/program_dataflow.h"
#include "analysis/program_index.h"
#include "analysis/state/state_storage.h"
#include "core/rule.h"
#include "core/rule_catalogue.h"

namespace pt2lint {
namespace {

// The output spec (other than `skip`) that writes `placeholder` back, or -1.
int write_back_of(const ProgramIndex& index, int placeholder, int skip) {
  for (const dataflow::ResolvedWriteBack& write_back : dataflow::resolved_write_backs(index))
    if (write_back.spec != skip && write_back.target == placeholder) return write_back.spec;
  return -1;
}

// Two names of one storage (tied weights, one tensor registered twice): updating one and
// writing it back to the other writes the same tensor, which aliased-state-written reports.
bool same_storage(dataflow::ProgramDataflow& flow, int a, int b) {
  const StateStorage& storage = flow.index().storage();
  return storage.has_aliases() && storage.same_storage(flow.state(a).target, flow.state(b).target);
}

class MutationValueDerivesFromTarget final : public Rule {
 public:
  const RuleInfo& info() const override { return kMutationValueDerivesFromTarget; }

  void check(const ProgramIndex& index, DiagnosticSink& sink) const override {
    std::optional<dataflow::ProgramDataflow> flow;
    for (const auto& [i, target, value] : dataflow::resolved_write_backs(index)) {
      if (!flow) flow.emplace(index);
      const int source = flow->tracer().update_of(value);
      if (source < 0 || source == target) continue;
      const dataflow::Trace& trace = flow->tracer().update_origin(value);
      if (same_storage(*flow, source, target)) continue;
      // A full overwrite computed from another state (`b.copy_(a * 2)`) is a legitimate program
      // unless that state is written back too: then the two write-backs are exchanged.
      if (!trace.updated && write_back_of(index, source, i) < 0) continue;
      report(*flow, i, value, target, source, trace, sink);
    }
  }

 private:
  void report(dataflow::ProgramDataflow& flow, int spec_index, std::string_view value, int target, int source,
              const dataflow::Trace& trace, DiagnosticSink& sink) const {
    const ProgramIndex& index = flow.index();
    dataflow::PlaceholderState declared = flow.state(target);
    dataflow::PlaceholderState actual = flow.state(source);
    auto finding = emit(sink, kMutationValueDerivesFromTarget, index.name(),
                        fmt::format("output spec {} writes `{}` back to {}, but `{}` is the update of {}",
                                    spec_index, value, flow.describe_state(target), value,
                                    flow.describe_state(source)));
    finding.at_output_spec(spec_index).at_value(std::string(value)).state(std::string(declared.target));
    if (!trace.updated)
      finding.note(fmt::format("`{}` overwrites its target with a value computed from the old value of {} "
                               "(and of no other state), as an observer or EMA updates its own state",
                               value, flow.describe_state(source)));
    if (trace.updated && trace.update_node >= 0) {
      finding.at_node(std::string(index.node_name(trace.update_node)));
      finding.op(index.graph().nodes(trace.update_node).target());
    }
    if (trace.updated)
      for (std::string& note : flow.chain_notes(flow.tracer().chain(value, true))) finding.note(std::move(note));
    int other = write_back_of(index, source, spec_index);
    if (other >= 0) {
      finding.note(fmt::format("output spec {} also writes {} back", other,
                               flow.describe_state(source)));
    } else {
      finding.note(fmt::format("no other output spec writes {} back: its update is lost",
                               flow.describe_state(source)));
    }
    finding.note(fmt::format(
        "at run time {} receives another state's new value after every call: when the shapes "
        "match, PyTorch loads and runs the program and it silently computes the wrong state",
        flow.describe_state(target)));
    finding.fix(fmt::format("name {} `{}` as the target of output spec {}, the state `{}` updates",
                            state_kind_words(actual.kind), actual.target, spec_index, value));
  }
};

}  // namespace

std::unique_ptr<Rule> make_MutationValueDerivesFromTarget() {
  return std::make_unique<MutationValueDerivesFromTarget>();
}

}  // namespace pt2lint
