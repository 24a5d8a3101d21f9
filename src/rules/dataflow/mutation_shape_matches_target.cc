// PT302 mutation-shape-matches-target: a write-back value whose shape, dtype or device differs from
// its target's.
// docs/rules/mutation-shape-matches-target.md
#include <fmt/format.h>

#include "analysis/dataflow/effective_mutations.h"
#include "analysis/dataflow/program_dataflow.h"
#include "analysis/dataflow/tensor_meta_text.h"
#include "analysis/program_index.h"
#include "core/ir/tensor_meta_predicates.h"
#include "core/rule.h"
#include "core/rule_catalogue.h"

namespace pt2lint {
namespace {

class MutationShapeMatchesTarget final : public Rule {
 public:
  const RuleInfo& info() const override { return kMutationShapeMatchesTarget; }

  void check(const ProgramIndex& index, DiagnosticSink& sink) const override {
    std::optional<dataflow::ProgramDataflow> flow;
    for (const auto& [i, target, value] : dataflow::resolved_write_backs(index)) {
      const ir::TensorMeta* value_meta = index.tensor_meta(value);
      const ir::TensorMeta* target_meta = index.tensor_meta(index.placeholder_names()[target]);
      if (value_meta == nullptr || target_meta == nullptr) continue;  // value-has-metadata
      std::vector<std::string> differences;
      if (!same_sizes(*value_meta, *target_meta)) differences.emplace_back("shape");
      if (value_meta->dtype() != target_meta->dtype()) differences.emplace_back("dtype");
      if (!compatible_devices(value_meta->device(), target_meta->device()))
        differences.emplace_back("device");
      if (differences.empty()) continue;
      if (!flow) flow.emplace(index);
      report(*flow, i, value, target, *value_meta, *target_meta, differences, sink);
    }
  }

 private:
  void report(dataflow::ProgramDataflow& flow, int spec_index, std::string_view value, int target,
              const ir::TensorMeta& value_meta, const ir::TensorMeta& target_meta,
              const std::vector<std::string>& differences, DiagnosticSink& sink) const {
    const ProgramIndex& index = flow.index();
    dataflow::PlaceholderState declared = flow.state(target);
    std::string value_text = dataflow::meta_text(value_meta);
    std::string target_text = dataflow::meta_text(target_meta);
    if (differences.size() == 1 && differences[0] == "device") {
      value_text += " on " + dataflow::device_text(value_meta.device());
      target_text += " on " + dataflow::device_text(target_meta.device());
    }
    auto finding = emit(sink, kMutationShapeMatchesTarget, index.name(),
                        fmt::format("output spec {} declares `{}` {} as the update of {} {}", spec_index,
                                    value, value_text, flow.describe_state(target), target_text));
    finding.at_output_spec(spec_index).at_value(std::string(value)).state(std::string(declared.target));
    if (std::optional<ValueDef> def = index.definition(value); def && def->node >= 0) {
      finding.at_node(std::string(index.node_name(def->node)));
      finding.op(index.graph().nodes(def->node).target());
      finding.note(fmt::format("`{}` is produced by {}", value, flow.describe_node(def->node)));
    }
    std::string what = differences[0];
    for (std::size_t d = 1; d < differences.size(); ++d) what += (d + 1 == differences.size() ? " and " : ", ") + differences[d];
    finding.note(fmt::format("the {} differ{}", what, differences.size() == 1 ? "s" : ""));
    finding.note(
        "after every call the runtime copies each mutation output into its state: a value of "
        "another shape fails there (or is broadcast into it), and another dtype or device is "
        "silently converted, so the state stops holding what the model computed");
    const dataflow::Trace& trace = flow.tracer().update_origin(value);
    if (trace.placeholder >= 0 && trace.updated && trace.placeholder != target) {
      dataflow::PlaceholderState actual = flow.state(trace.placeholder);
      finding.fix(fmt::format("`{}` is the update of {}: name `{}` as the target of output spec {}",
                              value, flow.describe_state(trace.placeholder), actual.target, spec_index));
    } else {
      finding.fix(fmt::format("write back the new value of `{}` ({}), or make this output a user output",
                              declared.target, dataflow::meta_text(target_meta)));
    }
  }
};

}  // namespace

std::unique_ptr<Rule> make_MutationShapeMatchesTarget() {
  return std::make_unique<MutationShapeMatchesTarget>();
}

}  // namespace pt2lint
