// PT324 written-state-needs-initial-value: a written buffer whose initial value the program reads.
// PyTorch keeps initial values, so the program is correct; a target that drops the initial values
// of mutated buffers (ExecuTorch without et_init_buffer) computes garbage with it
// (executorch#7279). Selected by those who export for such targets; `pt2lint contract` shows the
// fact for every written state.
// docs/rules/written-state-needs-initial-value.md
#include <fmt/format.h>

#include <memory>

#include "analysis/dataflow/program_dataflow.h"
#include "analysis/program_index.h"
#include "analysis/state/initial_state.h"
#include "core/rule.h"
#include "core/rule_catalogue.h"

namespace pt2lint {
namespace {

class WrittenStateNeedsInitialValue final : public Rule {
 public:
  const RuleInfo& info() const override { return kWrittenStateNeedsInitialValue; }

  void check(const ProgramIndex& index, DiagnosticSink& sink) const override {
    dataflow::ProgramDataflow flow(index);
    for (const InitialStateFact& fact : initial_state_facts(index, flow.ops(), flow.tracer())) {
      if (fact.kind != StateKind::kBuffer || fact.verdict != InitialValue::kDepends) continue;
      auto finding = emit(sink, kWrittenStateNeedsInitialValue, index.name(),
                          fmt::format("buffer `{}` is written by the program and depends on its initial "
                                      "value: {}",
                                      fact.target, fact.why));
      finding.at_input_spec(fact.input_spec).state(std::string(fact.target));
      if (fact.node >= 0) finding.at_node(std::string(index.node_name(fact.node)));
      finding
          .note("the buffer's initial value (the one saved with the program) is part of what the "
                "program computes: a target that drops the initial values of mutated buffers, "
                "or allocates them uninitialized, computes garbage on the first call")
          .fix(fmt::format("keep the initial value of `{}` on targets that drop them (ExecuTorch: "
                           "et_init_buffer / the initialized-mutable-buffer pass), or overwrite the "
                           "whole buffer before its first read",
                           fact.target));
    }
  }
};

}  // namespace

std::unique_ptr<Rule> make_WrittenStateNeedsInitialValue() {
  return std::make_unique<WrittenStateNeedsInitialValue>();
}

}  // namespace pt2lint
