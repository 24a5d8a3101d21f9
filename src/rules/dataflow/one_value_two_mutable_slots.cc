// PT312 one-value-two-mutable-slots: one tensor, or two views of one storage, is passed to two
// written arguments of one call. Eager PyTorch runs both writes on the one storage;
// functionalization (run_decompositions, auto_functionalized_v2, triton_kernel_wrapper_functional)
// clones each written argument on its own and writes back one clone, so one of the two writes is
// silently lost (pytorch/pytorch#196657). Checked on a Triton launch's declared writes (TRAINING)
// and on the functional form: the bases of a decoded auto_functionalized/_v2 or
// triton_kernel_wrapper_functional call. Not on a custom op called in place with one tensor twice:
// PyTorch 2.11 functionalizes that into one `_all_bases` entry and runs it equal to eager
// (tests/data/device/soundness/custom_op_same_buffer_twice*).
// docs/rules/one-value-two-mutable-slots.md
#include <fmt/format.h>

#include <map>
#include <memory>
#include <string>
#include <vector>

#include "analysis/dataflow/effective_mutations.h"
#include "analysis/dataflow/program_dataflow.h"
#include "analysis/dataflow/triton_kernels.h"
#include "analysis/program_index.h"
#include "core/rule.h"
#include "core/rule_catalogue.h"

namespace pt2lint {
namespace {

// One written slot of a call: its name ("a", "xs[1]", "_all_bases[0]") and the value passed.
struct Slot {
  std::string name;
  std::string_view value;
};

class OneValueTwoMutableSlots final : public Rule {
 public:
  const RuleInfo& info() const override { return kOneValueTwoMutableSlots; }

  void check(const ProgramIndex& index, DiagnosticSink& sink) const override {
    dataflow::ProgramDataflow flow(index);
    std::map<int, std::vector<Slot>> by_node;
    std::map<std::pair<int, std::string_view>, int> elements;  // list arguments: element count so far
    for (const dataflow::InPlaceWrite& write : dataflow::op_writes(index, flow.ops(), flow.tracer())) {
      if (!dataflow::is_triton_mutation(index.graph().nodes(write.node).target())) continue;
      const int element = elements[{write.node, write.argument}]++;
      std::string name = std::string(write.argument);
      if (element > 0 || list_argument(index, write.node, write.argument)) name += fmt::format("[{}]", element);
      by_node[write.node].push_back({std::move(name), write.value});
    }
    const ir::Graph& graph = index.graph();
    for (int n = 0; n < graph.nodes_size(); ++n) {
      const dataflow::AutoFunctionalizedCall* call = flow.ops().auto_functionalized(n);
      if (call == nullptr) continue;
      for (std::size_t i = 0; i < call->updates.size(); ++i) {
        const auto& update = call->updates[i];
        by_node[n].push_back({update.argument.empty() ? fmt::format("base {}", i) : update.argument, update.base});
      }
    }
    for (const auto& [node, slots] : by_node) report_shared(flow, node, slots, sink);
  }

 private:
  static bool list_argument(const ProgramIndex& index, int node, std::string_view argument) {
    for (const ir::NamedArgument& input : index.graph().nodes(node).inputs())
      if (input.name() == argument) return input.arg().has_as_tensors();
    return false;
  }

  // The storage a value is: its state placeholder, or the value itself when it is fresh.
  static std::string storage_key(dataflow::ProgramDataflow& flow, std::string_view value) {
    const int placeholder = flow.tracer().alias_root(value).placeholder;
    return placeholder >= 0 ? fmt::format("#{}", placeholder) : std::string(value);
  }

  void report_shared(dataflow::ProgramDataflow& flow, int node, const std::vector<Slot>& slots,
                     DiagnosticSink& sink) const {
    std::map<std::string, std::size_t> first_slot;
    for (std::size_t i = 0; i < slots.size(); ++i) {
      if (slots[i].value.empty()) continue;
      auto [it, inserted] = first_slot.try_emplace(storage_key(flow, slots[i].value), i);
      if (inserted) continue;
      report(flow, node, slots[it->second], slots[i], sink);
      return;  // one finding per call
    }
  }

  void report(dataflow::ProgramDataflow& flow, int node, const Slot& first, const Slot& second,
              DiagnosticSink& sink) const {
    const ProgramIndex& index = flow.index();
    const int placeholder = flow.tracer().alias_root(first.value).placeholder;
    const std::string what = placeholder >= 0 ? flow.describe_state(placeholder) : fmt::format("`{}`", first.value);
    const std::string values = first.value == second.value
                                   ? fmt::format("`{}`", first.value)
                                   : fmt::format("`{}` and `{}`, views of one storage,", first.value, second.value);
    auto finding = emit(sink, kOneValueTwoMutableSlots, index.name(),
                        fmt::format("{} ({}) is passed to two written arguments, `{}` and `{}`, of {}: functionalization "
                                    "clones each written argument on its own, so the write through `{}` or the one "
                                    "through `{}` is lost",
                                    values, what, first.name, second.name, flow.describe_node(node), first.name,
                                    second.name));
    finding.at_node(std::string(index.node_name(node))).at_value(std::string(second.value));
    finding.op(index.graph().nodes(node).target());
    if (placeholder >= 0) finding.state(std::string(flow.state(placeholder).target));
    finding.note("eager PyTorch runs both writes on the one tensor; the functional program (run_decompositions, "
                 "AOTInductor, ExecuTorch) keeps only one of them, silently (pytorch/pytorch#196657)");
    finding.fix(fmt::format("pass distinct tensors to `{}` and `{}` (write into a clone and copy it back), or make "
                            "the op write one argument",
                            first.name, second.name));
  }
};

}  // namespace

std::unique_ptr<Rule> make_OneValueTwoMutableSlots() { return std::make_unique<OneValueTwoMutableSlots>(); }

}  // namespace pt2lint
