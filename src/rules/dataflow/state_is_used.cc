// PT306 state-is-used: a parameter or buffer that nothing reads or writes.
// docs/rules/state-is-used.md
#include <fmt/format.h>

#include "analysis/dataflow/effective_mutations.h"
#include "analysis/dataflow/program_dataflow.h"
#include "analysis/dataflow/tensor_meta_text.h"
#include "analysis/program_index.h"
#include "analysis/state/framework_buffers.h"
#include "analysis/state/state_use.h"
#include "core/ir/tensor_meta_predicates.h"
#include "core/rule.h"
#include "core/rule_catalogue.h"

namespace pt2lint {
namespace {

class StateIsUsed final : public Rule {
 public:
  const RuleInfo& info() const override { return kStateIsUsed; }

  void check(const ProgramIndex& index, DiagnosticSink& sink) const override {
    // One storage under several names, or one state shared by the programs of an archive:
    // used when any name of it is used by any program.
    const std::vector<int> unused = unused_state_placeholders(
        index, [](const ir::InputSpec& spec) { return spec.has_buffer() || spec.has_parameter(); });
    std::optional<ModuleClasses> modules;
    std::optional<dataflow::ProgramDataflow> flow;
    std::vector<dataflow::StateWrite> written_constants;
    for (int p : unused) {
      const ir::InputSpec& spec = *index.input_spec_for(index.placeholder_names()[static_cast<std::size_t>(p)]);
      if (!modules) modules.emplace(index);
      if (spec.has_buffer() && framework_buffer_of(*modules, input_spec_target(spec))) continue;
      if (!flow) {
        flow.emplace(index);
        for (dataflow::StateWrite& write : dataflow::effective_mutations(index, flow->ops(), flow->tracer()))
          if (write.kind == StateKind::kTensorConstant) written_constants.push_back(std::move(write));
      }
      report(*flow, p, written_constants, sink);
    }
  }

 private:
  void report(dataflow::ProgramDataflow& flow, int placeholder,
              const std::vector<dataflow::StateWrite>& written_constants, DiagnosticSink& sink) const {
    const ProgramIndex& index = flow.index();
    dataflow::PlaceholderState state = flow.state(placeholder);
    auto finding = emit(sink, kStateIsUsed, index.name(),
                        fmt::format("{} (placeholder `{}`) is declared, but nothing reads or writes it",
                                    flow.describe_state(placeholder), state.placeholder));
    finding.at_input_spec(state.input_spec).at_value(std::string(state.placeholder)).state(std::string(state.target));
    // The transformers static-cache pattern: the real state lives in written constants of
    // the same shape.
    if (const ir::TensorMeta* meta = index.tensor_meta(state.placeholder)) {
      for (const dataflow::StateWrite& constant : written_constants) {
        const ir::TensorMeta* other = index.tensor_meta(index.placeholder_names()[constant.placeholder]);
        if (other == nullptr || !same_sizes(*meta, *other) || other->dtype() != meta->dtype()) continue;
        finding.note(fmt::format("tensor constant `{}` has the same {} and is written in place: the "
                                 "state this program really keeps lives there",
                                 constant.target, dataflow::meta_text(*meta)));
        break;
      }
    }
    if (index.archive_programs().size() > 1)
      finding.note(fmt::format("no other program of this archive uses it either ({} programs)",
                               index.archive_programs().size()));
    finding.note(
        "a runtime still allocates, loads and memory-plans declared state; one that updates or "
        "inspects it by name sees a tensor the program never touches");
    finding.fix(fmt::format("remove `{}` from the module, or make the code that should use it read or "
                            "write this {}",
                            state.target, state_kind_words(state.kind)));
  }
};

}  // namespace

std::unique_ptr<Rule> make_StateIsUsed() { return std::make_unique<StateIsUsed>(); }

}  // namespace pt2lint
