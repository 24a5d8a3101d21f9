// PT322 norm-stats-match-training-mode: a norm's running statistics against the training flag of
// the norm ops that use them: statistics written back (running_mean, running_var,
// num_batches_tracked) while every norm that uses them runs in eval mode. A pass flipped the mode
// and kept the write-backs, or a decomposition re-added the counter's update (executorch#19980):
// the program loads, runs, and updates state the eager model in that mode leaves alone. (A
// training-mode norm whose statistics are tensor constants writes those constants:
// constants-are-not-written's finding.)
// docs/rules/norm-stats-match-training-mode.md
#include <fmt/format.h>

#include <algorithm>
#include <map>
#include <memory>
#include <optional>
#include <string>
#include <vector>

#include "analysis/dataflow/effective_mutations.h"
#include "analysis/dataflow/program_dataflow.h"
#include "analysis/opschema/undeclared_writes.h"
#include "analysis/program_index.h"
#include "core/rule.h"
#include "core/rule_catalogue.h"

namespace pt2lint {
namespace {

// The batch norms PyTorch exports, before and after decomposition, and how each says its mode.
struct NormOp {
  std::string_view op;        // "aten.batch_norm"
  std::string_view mode_arg;  // the bool argument that enables training; "" when fixed
  bool fixed_training;        // the mode when mode_arg is ""
};
constexpr NormOp kNormOps[] = {
    {"aten.batch_norm", "training", false},
    {"aten.native_batch_norm", "training", false},
    {"aten._native_batch_norm_legit", "training", false},
    {"aten._native_batch_norm_legit_functional", "training", false},
    {"aten._native_batch_norm_legit_no_training", "", false},
    {"aten._batch_norm_with_update", "", true},
    {"aten._batch_norm_with_update_functional", "", true},
    {"aten._batch_norm_no_update", "", false},
    {"aten.cudnn_batch_norm", "training", false},
    {"aten.miopen_batch_norm", "training", false},
};

// "torch.ops.aten.batch_norm.default" -> "aten.batch_norm".
std::string_view op_without_overload(std::string_view target) {
  constexpr std::string_view kPrefix = "torch.ops.";
  if (target.starts_with(kPrefix)) target.remove_prefix(kPrefix.size());
  const std::size_t dot = target.rfind('.');
  return dot == std::string_view::npos || dot == target.find('.') ? target : target.substr(0, dot);
}

const NormOp* norm_op(std::string_view target) {
  const std::string_view op = op_without_overload(target);
  for (const NormOp& norm : kNormOps)
    if (norm.op == op) return &norm;
  return nullptr;
}

// The placeholder a named tensor argument of `node` is, or -1.
int argument_placeholder(const ProgramIndex& index, const ir::Node& node, std::string_view name) {
  for (const ir::NamedArgument& input : node.inputs()) {
    if (input.name() != name) continue;
    std::string_view value;
    if (input.arg().has_as_tensor()) value = input.arg().as_tensor().name();
    else if (input.arg().has_as_optional_tensor() && input.arg().as_optional_tensor().has_as_tensor())
      value = input.arg().as_optional_tensor().as_tensor().name();
    const std::optional<ValueDef> def = index.definition(value);
    return def ? def->placeholder : -1;
  }
  return -1;
}

// The module a statistic belongs to: "layer1.0.bn1.running_mean" -> "layer1.0.bn1".
std::string_view module_of(std::string_view fqn) {
  const std::size_t dot = fqn.rfind('.');
  return dot == std::string_view::npos ? std::string_view() : fqn.substr(0, dot);
}

// What the norm ops of one module (its running_mean/running_var) say.
struct ModuleNorms {
  int first_node = -1;
  bool any_training = false;
  bool mode_known = true;  // every norm's mode is a literal
};

class NormStatsMatchTrainingMode final : public Rule {
 public:
  const RuleInfo& info() const override { return kNormStatsMatchTrainingMode; }

  void check(const ProgramIndex& index, DiagnosticSink& sink) const override {
    const ir::Graph& graph = index.graph();
    // Most programs have no batch norm: they pay for one look at each distinct target.
    std::vector<const NormOp*> norm_by_op(static_cast<std::size_t>(index.op_count()));
    for (int op = 0; op < index.op_count(); ++op) norm_by_op[static_cast<std::size_t>(op)] = norm_op(index.op_name(op));
    if (std::none_of(norm_by_op.begin(), norm_by_op.end(), [](const NormOp* norm) { return norm != nullptr; })) return;
    dataflow::ProgramDataflow flow(index);
    std::map<std::string_view, ModuleNorms> modules;  // by module FQN
    for (int n = 0; n < graph.nodes_size(); ++n) {
      const ir::Node& node = graph.nodes(n);
      const NormOp* norm = norm_by_op[static_cast<std::size_t>(index.node_op(n))];
      if (norm == nullptr) continue;
      bool training = norm->fixed_training;
      const bool literal = norm->mode_arg.empty() || opschema::node_bool_argument(node, norm->mode_arg, training);
      for (std::string_view stat : {"running_mean", "running_var"}) {
        const int p = argument_placeholder(index, node, stat);
        if (p < 0) continue;
        const dataflow::PlaceholderState state = flow.state(p);
        if (state.kind != StateKind::kBuffer) continue;
        ModuleNorms& module = modules[module_of(state.target)];
        if (module.first_node < 0) module.first_node = n;
        module.any_training = module.any_training || (literal && training);
        module.mode_known = module.mode_known && literal;
      }
    }
    if (modules.empty()) return;
    // Written statistics of modules whose every norm runs in eval mode, grouped by module.
    std::map<std::string_view, std::vector<std::string_view>> frozen_but_written;
    for (const dataflow::StateWrite& write : dataflow::effective_mutations(index, flow.ops(), flow.tracer())) {
      if (write.kind != StateKind::kBuffer) continue;
      const std::string_view leaf = write.target.substr(write.target.rfind('.') + 1);  // npos + 1 == 0
      if (leaf != "running_mean" && leaf != "running_var" && leaf != "num_batches_tracked") continue;
      // A statistic updated by hand (an EMA next to an eval-mode norm) is the model's business;
      // only statistics a norm writes, and the batch counter, are checked.
      if (leaf != "num_batches_tracked" && !written_by_norm(index, write)) continue;
      auto it = modules.find(module_of(write.target));
      if (it == modules.end() || it->second.any_training || !it->second.mode_known) continue;
      frozen_but_written[it->first].push_back(write.target);
    }
    for (const auto& [module, written] : frozen_but_written)
      report_eval_writes(index, flow, sink, modules[module].first_node, module, written);
  }

 private:
  static bool written_by_norm(const ProgramIndex& index, const dataflow::StateWrite& write) {
    for (int n : write.nodes) {
      if (n < 0 || n >= index.graph().nodes_size()) continue;
      const ir::Node& node = index.graph().nodes(n);
      if (norm_op(node.target()) != nullptr) return true;
      // A getitem of a norm's results, where the graph spells it out.
      if (op_without_overload(node.target()) == "operator.getitem" && node.inputs_size() > 0 &&
          node.inputs(0).arg().has_as_tensor()) {
        const std::optional<ValueDef> def = index.definition(node.inputs(0).arg().as_tensor().name());
        if (def && def->node >= 0 && norm_op(index.graph().nodes(def->node).target()) != nullptr) return true;
      }
    }
    return false;
  }

  static void report_eval_writes(const ProgramIndex& index, dataflow::ProgramDataflow& flow,
                                 DiagnosticSink& sink, int node, std::string_view module,
                                 const std::vector<std::string_view>& written) {
    std::string names;
    for (std::string_view fqn : written) names += (names.empty() ? "`" : "`, `") + std::string(fqn);
    names += "`";
    emit(sink, kNormStatsMatchTrainingMode, index.name(),
         fmt::format("the program writes back {} of norm `{}`, but every norm that uses its "
                     "statistics runs in eval mode ({}): no training-mode norm produces them",
                     names, module, flow.describe_node(node)))
        .at_node(std::string(index.node_name(node)))
        .state(std::string(written.front()))
        .note("in eval mode a norm neither updates its running statistics nor counts batches; "
              "a program that writes them back anyway updates state the eager model leaves "
              "alone (num_batches_tracked grows on every call), or a pass flipped a training-mode "
              "norm to eval and kept its write-backs, so the statistics silently stop learning")
        .fix(fmt::format("export the model in the mode it will run in: for inference call "
                         "model.eval() before export and drop the write-backs of `{}`; for "
                         "training keep the norm's training flag true",
                         module));
  }
};

}  // namespace

std::unique_ptr<Rule> make_NormStatsMatchTrainingMode() {
  return std::make_unique<NormStatsMatchTrainingMode>();
}

}  // namespace pt2lint
