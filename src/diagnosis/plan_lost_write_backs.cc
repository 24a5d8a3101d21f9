// Output side of the repair planner, after pairing: a state whose last update the graph
// computes but no output writes back lost its write-back. It was dropped (restored as a new
// buffer_mutation), or declared a user output (retargeted), or cannot be told (refused).
#include <fmt/format.h>

#include <algorithm>
#include <optional>
#include <string>
#include <vector>

#include "core/rule_catalogue.h"
#include "diagnosis/planner.h"

namespace pt2lint::diagnosis {

void Planner::restore_lost_write_backs() {
  auto& slots = draft_.outputs;
  RootCause* pairing = nullptr;
  for (RootCause& c : causes_)
    if (c.kind == "pairing") pairing = &c;
  // States whose last update the graph computes, with no write-back: each is either a dropped
  // write-back, or (when it is a user output) a write-back declared a user output.
  struct Lost {
    const DeclaredState* state;
    std::string update;
    std::vector<int> users;  // user outputs that return the update
  };
  std::vector<Lost> lost;
  for (const DeclaredState& state : states_) {
    if (state.kind != StateKind::kBuffer && state.kind != StateKind::kUserInput) continue;
    const std::string update(facts_.final_update(state.placeholder));
    if (update.empty()) continue;
    const bool has_write_back = std::any_of(slots.begin(), slots.end(), [&](const OutputSlot& s) {
      std::optional<DeclaredState> named = resolve_target(s.spec);
      return is_mutation_output(s.spec) && named && named->placeholder == state.placeholder;
    });
    if (has_write_back) continue;
    Lost entry{&state, update, {}};
    for (std::size_t i = 0; i < slots.size(); ++i)
      if (slots[i].is_user() && slots[i].value() == update) entry.users.push_back(static_cast<int>(i));
    lost.push_back(std::move(entry));
  }
  // The arity case: the out_spec has exactly as many leaves too few as there are lost states
  // returned once as a user output, so each of those outputs is that state's write-back.
  const std::optional<std::size_t> leaves = out_spec_leaves();
  const int surplus = leaves ? user_output_count() - static_cast<int>(*leaves) : -1;
  const auto returned_once = std::count_if(lost.begin(), lost.end(), [](const Lost& l) { return l.users.size() == 1; });
  for (const Lost& entry : lost) {
    const DeclaredState& state = *entry.state;
    const std::string& update = entry.update;
    const std::vector<int>& users = entry.users;
    const std::string kind(mutation_spec_kind(state.kind));
    const bool surplus_user = surplus > 0 && surplus == returned_once;
    if (users.size() == 1 && (pairing != nullptr || surplus_user)) {
      RootCause local{"write-back-as-user-output"};
      RootCause& cause = pairing != nullptr ? *pairing : local;
      cause.output_specs.push_back(slots[users[0]].original);
      cause.states.push_back(state.target);
      cause.notes.push_back(spec_note(fmt::format("output_specs[{}] is declared a user output, but {}",
                                                  users[0], facts_.describe(update)),
                                      slots[users[0]].original));
      apply(cause, {EditOp::kRetarget, users[0], -1, kind, state.target});
      if (pairing == nullptr) {
        local.message = fmt::format("the write-back of {} is declared a user output", state_words(state));
        local.rules = {&kOutputArityMatchesCallSpec};
        add_cause(std::move(local));
      }
    } else if (users.empty() || surplus == 0) {
      RootCause cause{"dropped-write-back"};
      cause.states.push_back(state.target);
      cause.message = fmt::format("the write-back of {} was dropped: the graph computes its new "
                                  "value `{}` and throws it away", state_words(state), update);
      cause.notes.push_back(facts_.describe(update));
      apply(cause, {EditOp::kAddWriteBack, -1, insertion_point(state.input_spec), kind,
                    state.target, update});
      add_cause(std::move(cause));
    } else {
      RootCause cause{"dropped-write-back"};
      cause.states.push_back(state.target);
      cause.message = fmt::format("{} has no write-back", state_words(state));
      cause.ambiguity = fmt::format(
          "its new value `{}` is also a user output: whether that output is the lost write-back "
          "or a second use of the value cannot be told from the out_spec", update);
      add_cause(std::move(cause));
    }
  }
}

}  // namespace pt2lint::diagnosis
