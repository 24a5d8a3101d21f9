// PT307 output-aliases-state: a user output that is, or aliases, a buffer or parameter.
// docs/rules/output-aliases-state.md
#include <fmt/format.h>

#include <unordered_map>

#include "analysis/dataflow/effective_mutations.h"
#include "analysis/dataflow/program_dataflow.h"
#include "analysis/program_index.h"
#include "analysis/state/state_storage.h"
#include "core/rule.h"
#include "core/rule_catalogue.h"

namespace pt2lint {
namespace {

class OutputAliasesState final : public Rule {
 public:
  const RuleInfo& info() const override { return kOutputAliasesState; }

  void check(const ProgramIndex& index, DiagnosticSink& sink) const override {
    const ir::GraphSignature& signature = index.signature();
    std::unordered_map<std::string_view, int> written_back;  // value -> mutation output spec
    for (int i = 0; i < signature.output_specs_size(); ++i) {
      if (is_mutation_output(signature.output_specs(i)))
        written_back.try_emplace(output_spec_arg_name(signature.output_specs(i)), i);
    }
    std::optional<dataflow::ProgramDataflow> flow;
    for (int i = 0; i < signature.output_specs_size(); ++i) {
      const ir::OutputSpec& spec = signature.output_specs(i);
      if (!spec.has_user_output()) continue;
      std::string_view value = output_spec_arg_name(spec);
      if (value.empty()) continue;
      if (!flow) flow.emplace(index);
      if (auto it = written_back.find(value); it != written_back.end()) {
        report_written_back(*flow, i, value, it->second, sink);
        continue;
      }
      const dataflow::Trace& root = flow->tracer().alias_root(value);
      if (root.placeholder < 0) continue;
      const StateKind kind = flow->state(root.placeholder).kind;
      if (kind != StateKind::kBuffer && kind != StateKind::kParameter) continue;
      report_alias(*flow, i, value, root, sink);
    }
  }

 private:
  static constexpr std::string_view kWhy =
      "backends disagree on a returned state alias: Torch-TensorRT's lift_mutated_buffers "
      "crashes when a model returns its mutated buffer (\"Tried to erase Node copy__default but "
      "it still had 1 users\", pytorch/TensorRT #4694), a runtime that writes state back in place "
      "hands the caller a tensor that changes on the next call, and one that copies it does not";

  // Tied or twice-registered state: the returned tensor is every one of its names.
  static void note_aliases(const ProgramIndex& index, std::string_view target, InFlightFinding& finding) {
    const StateStorage& storage = index.storage();
    if (!storage.has_aliases() || !storage.aliased(target)) return;
    finding.note(fmt::format("`{}` is one storage with {} ({}): the caller's tensor is all of them",
                             target, describe_aliases(index, target), storage.why_shared(target)));
  }

  void report_written_back(dataflow::ProgramDataflow& flow, int spec_index, std::string_view value,
                           int mutation_spec, DiagnosticSink& sink) const {
    const ProgramIndex& index = flow.index();
    const ir::OutputSpec& mutation = index.signature().output_specs(mutation_spec);
    std::string_view target = output_spec_target(mutation);
    auto finding = emit(sink, kOutputAliasesState, index.name(),
                        fmt::format("user output {} `{}` is also the value output spec {} writes back to "
                                    "`{}`",
                                    spec_index, value, mutation_spec, target));
    finding.at_output_spec(spec_index).at_value(std::string(value)).state(std::string(target));
    note_aliases(index, target, finding);
    finding.note(std::string(kWhy));
    finding.fix(fmt::format("return a copy (`.clone()`) of the new value of `{}` instead of the value "
                            "itself",
                            target));
  }

  void report_alias(dataflow::ProgramDataflow& flow, int spec_index, std::string_view value,
                    const dataflow::Trace& root, DiagnosticSink& sink) const {
    const ProgramIndex& index = flow.index();
    dataflow::PlaceholderState state = flow.state(root.placeholder);
    std::vector<dataflow::TraceStep> chain = flow.tracer().chain(value, false);
    bool through_view = false;
    for (const dataflow::TraceStep& step : chain) through_view |= step.kind == dataflow::StepKind::kView;
    std::string what = value == state.placeholder ? flow.describe_state(root.placeholder)
                       : through_view ? "a view of " + flow.describe_state(root.placeholder)
                                      : flow.describe_state(root.placeholder) + " itself, after an in-place write";
    auto finding = emit(sink, kOutputAliasesState, index.name(), fmt::format("user output {} `{}` is {}", spec_index, value, what));
    finding.at_output_spec(spec_index).at_value(std::string(value)).state(std::string(state.target));
    if (value != state.placeholder)
      for (std::string& note : flow.chain_notes(chain)) finding.note(std::move(note));
    note_aliases(index, state.target, finding);
    finding.note(std::string(kWhy));
    finding.fix(fmt::format("return a copy (`.clone()`) of `{}` instead of the state itself", state.target));
  }
};

}  // namespace

std::unique_ptr<Rule> make_OutputAliasesState() { return std::make_unique<OutputAliasesState>(); }

}  // namespace pt2lint
