// PT308 aliased-state-written: state written by the program whose storage has other names.
// docs/rules/aliased-state-written.md
#include <fmt/format.h>

#include <set>

#include "analysis/dataflow/effective_mutations.h"
#include "analysis/dataflow/program_dataflow.h"
#include "analysis/program_index.h"
#include "analysis/state/state_storage.h"
#include "core/rule.h"
#include "core/rule_catalogue.h"

namespace pt2lint {
namespace {

class AliasedStateWritten final : public Rule {
 public:
  const RuleInfo& info() const override { return kAliasedStateWritten; }

  void check(const ProgramIndex& index, DiagnosticSink& sink) const override {
    const StateStorage& storage = index.storage();
    if (!storage.has_aliases()) return;  // the usual case: no dataflow needed
    dataflow::ProgramDataflow flow(index);
    std::set<std::string_view> reported;  // canonical names: one finding per storage
    for (const dataflow::StateWrite& write :
         dataflow::effective_mutations(index, flow.ops(), flow.tracer())) {
      if (write.kind == StateKind::kUserInput || !storage.aliased(write.target)) continue;
      if (!reported.insert(storage.canonical(write.target)).second) continue;
      report(flow, write, storage, sink);
    }
  }

 private:
  void report(dataflow::ProgramDataflow& flow, const dataflow::StateWrite& write,
              const StateStorage& storage, DiagnosticSink& sink) const {
    const ProgramIndex& index = flow.index();
    std::string by = !write.write_backs.empty()
                         ? fmt::format("output_specs[{}]", write.write_backs.front())
                         : write.nodes.empty() ? std::string("the program")
                                               : flow.describe_node(write.nodes.front());
    auto finding = emit(sink, kAliasedStateWritten, index.name(),
                        fmt::format("{} is written by {}, but its storage is also {}: {}",
                                    flow.describe_state(write.placeholder), by,
                                    describe_aliases(index, write.target),
                                    storage.why_shared(write.target)));
    if (!write.write_backs.empty()) finding.at_output_spec(write.write_backs.front());
    else finding.at_input_spec(write.input_spec);
    if (!write.nodes.empty()) finding.at_node(std::string(index.node_name(write.nodes.front())));
    finding.state(std::string(write.target));
    finding.note(
        "torch.export.load keeps the names as one tensor and running the program writes it in "
        "place, as eager PyTorch does: every name sees the new value");
    finding.note(
        "ep.run_decompositions() fails on a program that writes aliased state (\"expected "
        "compiled_fn to be GraphModule\", PyTorch 2.11), so it cannot be lowered or handed to a "
        "backend that decomposes it; and a consumer that keeps one tensor per name (memory "
        "planning by FQN) sees only the name written back change");
    finding.fix(fmt::format(
        "register the tensor under one name only (drop the other names, or make them properties "
        "that return `{}`), or give each name its own tensor (`.clone()`) if they are meant to "
        "differ; then export again",
        write.target));
  }
};

}  // namespace

std::unique_ptr<Rule> make_AliasedStateWritten() {
  return std::make_unique<AliasedStateWritten>();
}

}  // namespace pt2lint
