#include "diagnosis/repair_plan.h"

#include <algorithm>

#include "analysis/program_index.h"
#include "core/ir/treespec.h"
#include "diagnosis/planner.h"

namespace pt2lint::diagnosis {

std::vector<RootCause> plan_repairs(const ProgramIndex& index, EditLabels* labels) {
  if (!graph_is_sound(index)) return {};
  SignatureDraft draft;
  const bool paired = read_draft(index.exported(), draft);
  Planner planner(index, std::move(draft), paired);
  planner.plan_inputs();
  planner.plan_outputs();
  if (labels != nullptr) *labels = planner.take_labels();
  return planner.take();
}

namespace {

// The evidence that decides each kind of cause's edits (docs/fix.md, "proven by").
std::string_view proof_of(std::string_view kind) {
  static constexpr std::pair<std::string_view, std::string_view> kProofs[] = {
      {"pairing", "dataflow: the update origin of each value, and the out_spec's leaf count"},
      {"swap", "dataflow: each value is the update of the other state"},
      {"rename", "dataflow: the update origin of each value; the input specs and the saved state agree on the name"},
      {"state-renamed", "dataflow: the update origin of each value; the input specs and the saved state agree on the new name"},
      {"wrong-target", "dataflow: the update origin of the value"},
      {"duplicated-target", "dataflow: the update origin of the orphaned value"},
      {"duplicated-write-back", "the same value is written back twice"},
      {"dropped-write-back", "dataflow: the last update of the state, which no output returns"},
      {"user-output-as-write-back", "dataflow: a fresh value, and the state's own update elsewhere"},
      {"write-back-as-user-output", "dataflow: the update origin of the value; the out_spec's leaf count"},
      {"undefined-write-back-value", "dataflow: the last update of the target, which no output returns"},
      {"misaligned-specs", "the names: each spec names the value at another position"},
      {"misplaced-mutation", "the layout PyTorch pairs outputs by: tokens, write-backs in input order, user outputs"},
      {"misplaced-token", "the layout PyTorch pairs outputs by: tokens first"},
      {"extra-user-output", "the two specs are identical, and removing either gives one order"},
      {"placeholder-renamed", "the positions: the spec's name is defined nowhere, the placeholder has no spec"},
      {"input-spec-dropped", "torch.export's placeholder name, shape and dtype of the one undeclared saved entry"},
      {"buffer-declared-as-parameter", "the saved weights' is_param false"},
      {"constant-was-buffer", "dataflow: the graph computes the constant's update and an output writes it back"},
      {"spec-renamed", "the majority of the sources: the saved state, the write-back targets and the placeholder's name"},
      {"state-entry-renamed", "the majority of the sources: the input spec, the write-back targets and the placeholder's name"},
  };
  for (const auto& [name, proof] : kProofs)
    if (name == kind) return proof;
  return {};
}

}  // namespace

void Planner::apply(RootCause& cause, SignatureEdit edit, EditLabel label) {
  edit.sequence = sequence_++;
  if (label.proof.empty()) label.proof = std::string(proof_of(cause.kind));
  labels_[edit.sequence] = std::move(label);
  apply_edit(draft_, edit);
  cause.edits.push_back(std::move(edit));
}

void Planner::add_cause(RootCause cause) {
  auto unique = [](auto& list) {
    std::sort(list.begin(), list.end());
    list.erase(std::unique(list.begin(), list.end()), list.end());
  };
  std::erase(cause.output_specs, -1);
  unique(cause.output_specs);
  unique(cause.input_specs);
  std::erase(cause.states, std::string());
  unique(cause.states);
  causes_.push_back(std::move(cause));
}

bool Planner::saved_state(std::string_view fqn) const {
  for (const ir::StateSource* source : {&index_.program().weights(), &index_.program().constants()}) {
    if (!source->present()) continue;
    for (const ir::PayloadMetaEntry& entry : source->config().config())
      if (entry.key() == fqn) return true;
  }
  return false;
}

bool Planner::functional() const {
  return index_.dialect() != Dialect::kTraining && index_.dialect() != Dialect::kUnknown;
}

void Planner::declare_states() {
  states_.clear();
  state_by_placeholder_.clear();
  for (std::size_t j = 0; j < draft_.inputs.size(); ++j) {
    const ir::InputSpec& spec = draft_.inputs[j];
    DeclaredState state;
    state.kind = state_kind_of(spec);
    const std::string_view arg = input_spec_arg_name(spec);
    state.target = std::string(state.kind == StateKind::kUserInput ? arg : input_spec_target(spec));
    state.input_spec = static_cast<int>(j);
    std::optional<ValueDef> def = index_.definition(arg);
    state.placeholder = def && def->placeholder >= 0 ? def->placeholder : -1;
    if (state.placeholder >= 0 && !state_by_placeholder_.contains(state.placeholder))
      state_by_placeholder_[state.placeholder] = static_cast<int>(states_.size());
    states_.push_back(std::move(state));
  }
}

std::optional<DeclaredState> Planner::state_of_placeholder(int placeholder) const {
  auto it = state_by_placeholder_.find(placeholder);
  if (it == state_by_placeholder_.end()) return std::nullopt;
  return states_[it->second];
}

std::optional<DeclaredState> Planner::resolve_target(const ir::OutputSpec& spec) const {
  const StateKind kind = mutation_state_kind(spec);
  if (kind == StateKind::kNone) return std::nullopt;
  const std::string_view target = output_spec_target(spec);
  for (const DeclaredState& state : states_)
    if (state.kind == kind && state.target == target && state.placeholder >= 0) return state;
  return std::nullopt;
}

std::optional<std::size_t> Planner::out_spec_leaves() const {
  for (const ir::ModuleCallEntry& entry : index_.exported().graph_module().module_call_graph()) {
    if (!entry.fqn().empty() || !entry.has_signature() || entry.signature().out_spec().empty()) continue;
    TreeSpecShape shape = read_treespec(entry.signature().out_spec());
    if (shape.ok) return shape.leaves;
  }
  return std::nullopt;
}

int Planner::user_output_count() const {
  return static_cast<int>(std::count_if(draft_.outputs.begin(), draft_.outputs.end(), [](const OutputSlot& s) {
    return s.spec.has_user_output() || s.spec.has_loss_output();
  }));
}

}  // namespace pt2lint::diagnosis
