// PT306 (warning): a parameter or buffer that nothing reads or writes.
#include <fmt/format.h>

#include "rules/dataflow/dataflow_rules.h"
#include "verifier/dataflow/effective_mutations.h"
#include "verifier/dataflow/program_dataflow.h"
#include "verifier/dataflow/tensor_meta_text.h"
#include "verifier/program_index.h"

namespace pt2lint {
namespace {

constexpr RuleInfo kInfo{
    "PT306", "state-is-used", Severity::kWarning, RulePhase::kDataflow,
    "a parameter or buffer is declared but nothing reads or writes it"};

class StateIsUsed final : public Rule {
 public:
  const RuleInfo& info() const override { return kInfo; }

  void check(const ProgramIndex& index, DiagnosticSink& sink) const override {
    std::vector<bool> is_output(index.placeholder_names().size(), false);
    for (std::string_view output : index.output_names()) {
      std::optional<ValueDef> def = index.definition(output);
      if (def && def->placeholder >= 0) is_output[def->placeholder] = true;
    }
    // A state that is only written back (a full overwrite from other values) is used.
    for (const dataflow::ResolvedWriteBack& write_back : dataflow::resolved_write_backs(index))
      is_output[static_cast<std::size_t>(write_back.target)] = true;
    std::optional<dataflow::ProgramDataflow> flow;
    std::vector<dataflow::StateWrite> written_constants;
    for (int p = 0; p < static_cast<int>(index.placeholder_names().size()); ++p) {
      std::string_view name = index.placeholder_names()[p];
      if (name.empty() || !index.users(name).empty() || is_output[p]) continue;
      const ir::InputSpec* spec = index.input_spec_for(name);
      if (spec == nullptr || !(spec->has_buffer() || spec->has_parameter())) continue;
      if (!flow) {
        flow.emplace(index);
        for (dataflow::StateWrite& write : dataflow::effective_mutations(index, flow->ops(), flow->tracer()))
          if (write.kind == "tensor_constant") written_constants.push_back(std::move(write));
      }
      report(*flow, p, written_constants, sink);
    }
  }

 private:
  void report(dataflow::ProgramDataflow& flow, int placeholder,
              const std::vector<dataflow::StateWrite>& written_constants, DiagnosticSink& sink) const {
    const ProgramIndex& index = flow.index();
    dataflow::PlaceholderState state = flow.state(placeholder);
    auto finding = emit(sink, kInfo, index.name(),
                        fmt::format("{} (placeholder `{}`) is declared, but nothing reads or writes it",
                                    flow.describe_state(placeholder), state.placeholder));
    finding.at_input_spec(state.input_spec).at_value(std::string(state.placeholder)).state(std::string(state.target));
    // The transformers static-cache pattern: the real state lives in written constants of
    // the same shape.
    if (const ir::TensorMeta* meta = index.tensor_meta(state.placeholder)) {
      for (const dataflow::StateWrite& constant : written_constants) {
        const ir::TensorMeta* other = index.tensor_meta(index.placeholder_names()[constant.placeholder]);
        if (other == nullptr || !dataflow::same_sizes(*meta, *other) || other->dtype() != meta->dtype()) continue;
        finding.note(fmt::format("tensor constant `{}` has the same {} and is written in place: the "
                                 "state this program really keeps lives there",
                                 constant.target, dataflow::meta_text(*meta)));
        break;
      }
    }
    finding.note(
        "a runtime still allocates, loads and memory-plans declared state; one that updates or "
        "inspects it by name sees a tensor the program never touches");
    finding.fix(fmt::format("remove `{}` from the module, or make the code that should use it read or "
                            "write this {}",
                            state.target, dataflow::state_kind_words(state.kind)));
  }
};

}  // namespace

std::unique_ptr<Rule> make_state_is_used_rule() { return std::make_unique<StateIsUsed>(); }

}  // namespace pt2lint
