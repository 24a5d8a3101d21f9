// Layout half of the output planner: user outputs returned twice, and write-backs placed
// after user outputs (PyTorch pairs outputs with specs by position, write-backs first).
#include <fmt/format.h>

#include "analysis/program_index.h"
#include "core/rule_catalogue.h"
#include "diagnosis/planner.h"

namespace pt2lint::diagnosis {
namespace {


}  // namespace

void Planner::drop_extra_user_outputs() {
  const std::optional<std::size_t> leaves = out_spec_leaves();
  const int users = user_output_count();
  if (!leaves || users <= static_cast<int>(*leaves)) return;
  auto& slots = draft_.outputs;
  RootCause cause{"extra-user-output"};
  cause.rules = {&kOutputArityMatchesCallSpec};
  if (users != static_cast<int>(*leaves) + 1) {
    cause.message = fmt::format("the program returns {} user outputs; its out_spec has {} leaves", users, *leaves);
    cause.ambiguity = "more than one output is extra: which ones cannot be told";
    add_cause(std::move(cause));
    return;
  }
  // The extra output is a copy of an earlier one; removing either copy must give one order.
  for (int j = static_cast<int>(slots.size()) - 1; j >= 0; --j) {
    if (!slots[j].is_user()) continue;
    for (int k = j - 1; k >= 0; --k) {
      if (!slots[k].is_user() || slots[k].spec.SerializeAsString() != slots[j].spec.SerializeAsString())
        continue;
      bool same_order = true;
      for (int m = k + 1; m < j; ++m)
        if (slots[m].is_user() && slots[m].value() != slots[j].value()) same_order = false;
      cause.output_specs.push_back(slots[j].original);
      cause.message = fmt::format("output_specs[{}] returns `{}` a second time (as output_specs[{}] "
                                  "does), one user output more than the out_spec's {} leaves",
                                  j, slots[j].value(), k, *leaves);
      if (same_order) {
        apply(cause, {EditOp::kRemove, j});
      } else {
        cause.ambiguity = fmt::format(
            "removing output_specs[{}] or output_specs[{}] gives the user outputs in a different "
            "order, and nothing in the program says which order the caller expects", k, j);
      }
      add_cause(std::move(cause));
      return;
    }
  }
  cause.message = fmt::format("the program returns {} user outputs; its out_spec has {} leaves", users, *leaves);
  cause.ambiguity = "no user output is a copy of another: which one is extra cannot be told";
  add_cause(std::move(cause));
}

// Effect tokens come first: PyTorch pairs the outputs with the specs by position.
void Planner::move_tokens_first() {
  auto& slots = draft_.outputs;
  RootCause cause{"misplaced-token"};
  int front = 0;
  for (std::size_t i = 0; i < slots.size(); ++i) {
    if (!slots[i].spec.has_token()) continue;
    if (static_cast<int>(i) != front) {
      for (int k = front; k <= static_cast<int>(i); ++k)
        if (slots[k].original >= 0) cause.output_specs.push_back(slots[k].original);
      apply(cause, {EditOp::kMove, static_cast<int>(i), front});
    }
    ++front;
  }
  if (cause.edits.empty()) return;
  cause.message = fmt::format("{} effect token output(s) sit behind other outputs: PyTorch expects the "
                              "tokens first, so each moves (spec and graph output together) to the front",
                              cause.edits.size());
  cause.rules = {&kMutationsBeforeUserOutputs};
  add_cause(std::move(cause));
}

void Planner::order_layout() {
  move_tokens_first();
  RootCause* pairing = nullptr;
  for (RootCause& c : causes_)
    if (c.kind == "pairing" || c.kind == "write-back-as-user-output" || c.kind == "user-output-as-write-back")
      pairing = &c;
  RootCause local{"misplaced-mutation"};
  RootCause& cause = pairing != nullptr ? *pairing : local;
  move_user_outputs_back(cause) || move_mutations_forward(cause);
  if (pairing == nullptr && !local.edits.empty()) {
    local.message = fmt::format(
        "{} output(s) are out of place: PyTorch pairs outputs with specs by position, write-backs "
        "first, so each moves (spec and graph output together) to keep mutations before the user "
        "outputs, in input-spec order", local.edits.size());
    local.rules = {&kMutationsBeforeUserOutputs};
    add_cause(std::move(local));
  }
}

bool Planner::move_user_outputs_back(RootCause& cause) {
  // Fewer moves when a few user outputs sit in front of many mutations (a pass that put the
  // logits first): valid only if the mutations are then already in input-spec order.
  auto& slots = draft_.outputs;
  int users_in_front = 0, mutations_behind = 0, last_input = -1;
  bool seen_user = false;
  for (const OutputSlot& slot : slots) {
    if (slot.is_user()) seen_user = true;
    if (!is_mutation_output(slot.spec)) continue;
    std::optional<DeclaredState> state = resolve_target(slot.spec);
    if (!state || state->input_spec < last_input) return false;
    last_input = state->input_spec;
    if (seen_user) ++mutations_behind;
  }
  int last_mutation = -1;
  for (std::size_t i = 0; i < slots.size(); ++i)
    if (is_mutation_output(slots[i].spec)) last_mutation = static_cast<int>(i);
  for (int i = 0; i < last_mutation; ++i) users_in_front += slots[i].is_user() ? 1 : 0;
  if (mutations_behind == 0 || users_in_front >= mutations_behind) return false;
  for (int i = last_mutation - 1; i >= 0; --i) {
    if (!slots[i].is_user()) continue;
    if (slots[i].original >= 0) cause.output_specs.push_back(slots[i].original);
    apply(cause, {EditOp::kMove, i, last_mutation});
    --last_mutation;
  }
  return true;
}

bool Planner::move_mutations_forward(RootCause& cause) {
  auto& slots = draft_.outputs;
  for (;;) {
    int first_user = -1, late = -1;
    for (std::size_t i = 0; i < slots.size(); ++i) {
      if (slots[i].is_user() && first_user < 0) first_user = static_cast<int>(i);
      if (first_user >= 0 && is_mutation_output(slots[i].spec)) {
        late = static_cast<int>(i);
        break;
      }
    }
    if (late < 0) break;
    std::optional<DeclaredState> state = resolve_target(slots[late].spec);
    if (!state) return false;  // an unresolved target: mutation-target-resolves says so
    const int to = insertion_point(state->input_spec);
    for (int i = to; i <= late; ++i)
      if (slots[i].original >= 0) cause.output_specs.push_back(slots[i].original);
    cause.states.push_back(state->target);
    apply(cause, {EditOp::kMove, late, to});
  }
  return true;
}

int Planner::insertion_point(int input_spec) const {
  const auto& slots = draft_.outputs;
  for (std::size_t k = 0; k < slots.size(); ++k) {
    if (slots[k].spec.has_token()) continue;
    if (!is_mutation_output(slots[k].spec)) return static_cast<int>(k);
    std::optional<DeclaredState> state = resolve_target(slots[k].spec);
    if (state && state->input_spec > input_spec) return static_cast<int>(k);
  }
  return static_cast<int>(slots.size());
}

}  // namespace pt2lint::diagnosis
