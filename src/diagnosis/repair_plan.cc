#include "diagnosis/repair_plan.h"

#include <algorithm>

#include "analysis/program_index.h"
#include "core/ir/treespec.h"
#include "diagnosis/edit_labels.h"
#include "diagnosis/planner.h"

namespace pt2lint::diagnosis {

std::vector<RootCause> plan_repairs(const ProgramIndex& index, const std::set<std::string>* original_states) {
  if (!graph_is_sound(index)) return {};
  SignatureDraft draft;
  const bool paired = read_draft(index.exported(), draft);
  Planner planner(index, std::move(draft), paired);
  if (original_states != nullptr) planner.set_original_states(*original_states);
  planner.plan_inputs();
  planner.plan_outputs();
  return planner.take();
}

void Planner::apply(RootCause& cause, SignatureEdit edit, EditProof proof) {
  edit.sequence = sequence_++;
  edit.proof = std::move(proof);
  // The planner's draft only guides later planning; an edit that does not apply is caught
  // where the repair is applied for real (repair_program), which refuses it with the reason.
  (void)apply_edit(draft_, edit);
  cause.edits.push_back(std::move(edit));
}

std::vector<RootCause> Planner::take() {
  // Labelled here, not in apply(): a cause may change kind after its first edits (a pairing of
  // two retargets is a swap), and its edits are proven by what it turned out to be.
  for (RootCause& cause : causes_)
    for (SignatureEdit& edit : cause.edits)
      if (edit.proof.evidence == EditEvidence::kNone) edit.proof = proof_of(cause.kind, edit.op);
  return std::move(causes_);
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
