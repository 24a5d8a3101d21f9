// Output side of the repair planner, during pairing: a fresh value declared a write-back (a
// state overwritten whole, as `copy_` from a new value, a rolled window, an observer's new
// statistic) has no update origin that ties it to its state. When it cannot stay the
// write-back of the state it names (another output writes that state, its shape is not the
// state's, or the name resolves to nothing) and the out_spec's leaf count says it is not a user
// output, it is the write-back of some state. It is placed only when elimination decides:
// every state the program writes back keeps exactly one write-back, and exactly one state is
// left without one that has the value's shape and dtype. Anything else stays unprovable.
#include <fmt/format.h>

#include <algorithm>
#include <optional>
#include <set>

#include "analysis/program_index.h"
#include "core/rule_catalogue.h"
#include "diagnosis/planner.h"
#include "diagnosis/rename_pattern.h"

namespace pt2lint::diagnosis {
namespace {

// The one pattern every retarget of an unresolvable name follows, meant -> written (`forward`)
// and written -> meant (`backward`); nullopt when they disagree or there is none.
struct SharedPatterns {
  std::optional<RenamePattern> forward, backward;
};

SharedPatterns shared_patterns(const std::vector<Retarget>& retargets) {
  SharedPatterns shared;
  bool forward_ok = true, backward_ok = true;
  for (const Retarget& r : retargets) {
    if (r.named) continue;
    std::optional<RenamePattern> f = infer_rename(r.meant.target, r.written);
    std::optional<RenamePattern> b = infer_rename(r.written, r.meant.target);
    forward_ok = forward_ok && f && (!shared.forward || *shared.forward == *f);
    backward_ok = backward_ok && b && (!shared.backward || *shared.backward == *b);
    if (f && !shared.forward) shared.forward = f;
    if (b && !shared.backward) shared.backward = b;
  }
  if (!forward_ok) shared.forward.reset();
  if (!backward_ok) shared.backward.reset();
  return shared;
}

bool follows(const SharedPatterns& patterns, std::string_view state, std::string_view written) {
  return (patterns.forward && patterns.forward->apply(state) == written) ||
         (patterns.backward && patterns.backward->apply(written) == state);
}

}  // namespace

bool Planner::place_by_elimination(const std::vector<int>& homeless, const std::vector<int>& stayed,
                                   std::map<int, int>& written, std::vector<Retarget>& retargets) {
  return eliminate(homeless, stayed, written, retargets) || place_by_input_order(homeless, stayed, written, retargets);
}

bool Planner::place_by_input_order(const std::vector<int>& homeless, const std::vector<int>& stayed,
                                   std::map<int, int>& written, std::vector<Retarget>& retargets) {
  const auto& slots = draft_.outputs;
  auto meta_of_state = [&](const DeclaredState& s) -> const std::string& {
    return facts_.fact(index_.placeholder_names()[s.placeholder]).meta;
  };
  const std::set<int> on_trust(stayed.begin(), stayed.end());
  std::set<int> fresh_slots(homeless.begin(), homeless.end());
  fresh_slots.insert(stayed.begin(), stayed.end());
  // The write-back slots, and the states the dataflow (or an untouched unknown origin) ties them to.
  std::map<int, int> anchored;  // slot -> placeholder
  std::set<int> slot_set(homeless.begin(), homeless.end());
  for (const auto& [placeholder, slot] : written) {
    slot_set.insert(slot);
    if (!on_trust.contains(slot)) anchored[slot] = placeholder;
  }
  std::set<std::string> fresh_metas;
  for (int i : fresh_slots) {
    const std::string& meta = facts_.fact(slots[i].value()).meta;
    if (meta.empty()) return false;
    fresh_metas.insert(meta);
  }
  std::set<int> anchored_states;
  for (const auto& [slot, placeholder] : anchored) anchored_states.insert(placeholder);
  // The written states: the anchored ones, and every state of a fresh value's shape and dtype
  // that nothing else writes and the graph computes no update of (a state overwritten whole).
  std::vector<const DeclaredState*> states;
  for (const DeclaredState& state : states_) {
    if (state.placeholder < 0 || mutation_spec_kind(state.kind).empty()) continue;
    if (anchored_states.contains(state.placeholder)) {
      states.push_back(&state);
      continue;
    }
    if (!facts_.final_update(state.placeholder).empty() || !fresh_metas.contains(meta_of_state(state))) continue;
    // A buffer, or another state some write-back names: a user input of the same shape that no
    // target names is an input, not a lost write.
    const bool named_by_target = std::any_of(slots.begin(), slots.end(), [&](const OutputSlot& s) {
      const std::optional<DeclaredState> named = is_mutation_output(s.spec) ? resolve_target(s.spec) : std::nullopt;
      return named && named->placeholder == state.placeholder;
    });
    if (state.kind != StateKind::kBuffer && !named_by_target) continue;
    states.push_back(&state);
  }
  if (states.size() != slot_set.size() || states.size() < 2) return false;
  std::sort(states.begin(), states.end(),
            [](const DeclaredState* a, const DeclaredState* b) { return a->input_spec < b->input_spec; });
  const std::vector<int> order(slot_set.begin(), slot_set.end());  // graph-output order
  // PyTorch 2.11 writes the mutation outputs in input-spec order: the k-th write-back value is
  // the k-th written state's. Used only when every other source agrees: each write-back the
  // dataflow decides sits where that order puts it, each fresh value has its state's shape and
  // dtype, a fresh value computed from one state's old value alone is that state's, and the
  // names that resolve to nothing follow one renaming pattern.
  int agreements = 0;
  std::optional<RenamePattern> forward, backward;
  bool forward_ok = true, backward_ok = true, any_nameless = false;
  std::vector<std::pair<int, const DeclaredState*>> placed;
  for (std::size_t k = 0; k < order.size(); ++k) {
    const int i = order[k];
    const DeclaredState* state = states[k];
    if (auto a = anchored.find(i); a != anchored.end()) {
      if (a->second != state->placeholder) return false;
      if (facts_.fact(slots[i].value()).origin == Origin::kUpdate) ++agreements;
      continue;
    }
    const ValueFact& fact = facts_.fact(slots[i].value());
    if (fact.meta != meta_of_state(*state)) return false;
    if (fact.overwrite_of >= 0) {
      if (fact.overwrite_of != state->placeholder) return false;
      ++agreements;
    }
    const std::optional<DeclaredState> named = resolve_target(slots[i].spec);
    if (!named) {
      any_nameless = true;
      const std::string_view name = output_spec_target(slots[i].spec);
      std::optional<RenamePattern> f = infer_rename(state->target, name), b = infer_rename(name, state->target);
      forward_ok = forward_ok && f && (!forward || *forward == *f);
      backward_ok = backward_ok && b && (!backward || *backward == *b);
      if (f && !forward) forward = f;
      if (b && !backward) backward = b;
    }
    if (named && named->placeholder == state->placeholder) continue;  // stays where it is
    placed.emplace_back(i, state);
  }
  if (agreements == 0 || (any_nameless && !forward_ok && !backward_ok)) return false;
  for (int i : stayed)
    for (auto it = written.begin(); it != written.end(); ++it)
      if (it->second == i) {
        written.erase(it);
        break;
      }
  for (int i : stayed) {
    const std::optional<DeclaredState> named = resolve_target(slots[i].spec);
    if (named && std::none_of(placed.begin(), placed.end(), [&](const auto& p) { return p.first == i; }))
      written[named->placeholder] = i;
  }
  for (const auto& [i, state] : placed) {
    written[state->placeholder] = i;
    std::optional<DeclaredState> named = resolve_target(slots[i].spec);
    EditProof proof{EditEvidence::kDataflow,
                    fmt::format("dataflow and the layout: PyTorch writes the mutation outputs in input-spec order, "
                                "the write-backs the dataflow decides agree with that order, and `{}` {} is a fresh "
                                "value at the position of {}, of that shape and dtype{}",
                                slots[i].value(), facts_.fact(slots[i].value()).meta, state_words(*state),
                                facts_.fact(slots[i].value()).overwrite_of >= 0
                                    ? ", computed from that state's old value alone"
                                    : "")};
    retargets.push_back({i, *state, std::string(output_spec_target(slots[i].spec)), named, std::move(proof)});
  }
  return true;
}

bool Planner::eliminate(const std::vector<int>& homeless, const std::vector<int>& stayed,
                        std::map<int, int>& written, std::vector<Retarget>& retargets) {
  const auto& slots = draft_.outputs;
  const SharedPatterns patterns = shared_patterns(retargets);
  auto meta_of_state = [&](const DeclaredState& s) -> const std::string& {
    return facts_.fact(index_.placeholder_names()[s.placeholder]).meta;
  };
  // The states a write-back names now, or names under the rename the other retargets follow,
  // that no output is known to write yet.
  std::vector<const DeclaredState*> free;
  for (const DeclaredState& state : states_) {
    if (state.placeholder < 0 || mutation_spec_kind(state.kind).empty() || written.contains(state.placeholder))
      continue;
    const bool was_target = std::any_of(slots.begin(), slots.end(), [&](const OutputSlot& s) {
      if (!is_mutation_output(s.spec)) return false;
      std::optional<DeclaredState> named = resolve_target(s.spec);
      return named ? named->placeholder == state.placeholder
                   : follows(patterns, state.target, output_spec_target(s.spec));
    });
    if (was_target) free.push_back(&state);
  }
  // A fresh value that stayed the write-back of the state it names did so on trust (nothing
  // ties it to that state): once another fresh value must move, it competes with the rest, and
  // the states it stayed at are candidates too.
  std::vector<const DeclaredState*> pool = free;
  for (int i : stayed) {
    std::optional<DeclaredState> named = resolve_target(slots[i].spec);
    if (!named) return false;
    for (const DeclaredState& state : states_)
      if (state.placeholder == named->placeholder && state.input_spec == named->input_spec) pool.push_back(&state);
  }
  for (int i : stayed) {
    const std::string& meta = facts_.fact(slots[i].value()).meta;
    const auto rivals = std::count_if(pool.begin(), pool.end(), [&](const DeclaredState* s) {
      return meta_of_state(*s) == meta;
    });
    if (meta.empty() || rivals != 1) return false;
  }
  std::vector<std::pair<int, const DeclaredState*>> placed;
  std::set<int> taken;
  for (int i : homeless) {
    const std::string& meta = facts_.fact(slots[i].value()).meta;
    if (meta.empty()) return false;
    const bool nameless = !resolve_target(slots[i].spec);
    const DeclaredState* only = nullptr;
    int candidates = 0;
    for (const DeclaredState* state : free) {
      if (meta_of_state(*state) != meta) continue;
      if (nameless && !follows(patterns, state->target, output_spec_target(slots[i].spec))) continue;
      ++candidates;
      only = state;
    }
    if (candidates != 1 || !taken.insert(only->placeholder).second) return false;
    placed.emplace_back(i, only);
  }
  // Every state left without a write-back and without an update of its own must get one:
  // otherwise a state the program wrote back would silently stop being written.
  for (const DeclaredState* state : free)
    if (!taken.contains(state->placeholder) && facts_.final_update(state->placeholder).empty()) return false;
  for (const auto& [i, state] : placed) {
    written[state->placeholder] = i;
    std::optional<DeclaredState> named = resolve_target(slots[i].spec);
    EditProof proof{EditEvidence::kDataflow,
                    fmt::format("dataflow and elimination: `{}` {} is a fresh value, not a user output by the "
                                "out_spec's leaf count, and {} is the only written state left without a "
                                "write-back of that shape and dtype",
                                slots[i].value(), facts_.fact(slots[i].value()).meta, state_words(*state))};
    retargets.push_back({i, *state, std::string(output_spec_target(slots[i].spec)), named, std::move(proof)});
  }
  return true;
}

void Planner::restore_fresh_copy_backs() {
  const std::optional<std::size_t> leaves = out_spec_leaves();
  if (!leaves) return;
  const int surplus = user_output_count() - static_cast<int>(*leaves);
  if (surplus <= 0) return;
  auto& slots = draft_.outputs;
  // Buffers no output writes back and the graph computes no update of: read-only state, or
  // state overwritten whole whose write-back went missing.
  std::vector<const DeclaredState*> unwritten;
  for (const DeclaredState& state : states_) {
    if (state.kind != StateKind::kBuffer || state.placeholder < 0 || !facts_.final_update(state.placeholder).empty())
      continue;
    const bool written = std::any_of(slots.begin(), slots.end(), [&](const OutputSlot& s) {
      std::optional<DeclaredState> named = resolve_target(s.spec);
      return is_mutation_output(s.spec) && named && named->placeholder == state.placeholder;
    });
    if (!written) unwritten.push_back(&state);
  }
  auto meta_of_state = [&](const DeclaredState& s) -> const std::string& {
    return facts_.fact(index_.placeholder_names()[s.placeholder]).meta;
  };
  // Each surplus output must be a fresh value with exactly one unwritten buffer of its shape and
  // dtype; every other user output that could be one (fresh or of unknown origin, with such a
  // buffer) makes the choice ambiguous, and then nothing is done here.
  std::vector<std::pair<int, const DeclaredState*>> placed;
  std::set<int> taken;
  for (std::size_t i = 0; i < slots.size(); ++i) {
    if (!slots[i].is_user()) continue;
    const ValueFact& fact = facts_.fact(slots[i].value());
    if (fact.origin != Origin::kFresh && fact.origin != Origin::kUnknown) continue;
    if (fact.meta.empty()) return;
    const DeclaredState* only = nullptr;
    int candidates = 0;
    for (const DeclaredState* state : unwritten)
      if (meta_of_state(*state) == fact.meta) ++candidates, only = state;
    if (candidates == 0) continue;
    if (candidates > 1 || fact.origin != Origin::kFresh || !taken.insert(only->placeholder).second) return;
    // A full overwrite computed from another state's old value alone is no copy-back of this one.
    if (fact.overwrite_of >= 0 && fact.overwrite_of != only->placeholder) return;
    const auto returned = std::count_if(slots.begin(), slots.end(), [&](const OutputSlot& s) {
      return s.value() == slots[i].value();
    });
    if (returned != 1) return;  // a value returned twice is extra-user-output's
    placed.emplace_back(static_cast<int>(i), only);
  }
  if (static_cast<int>(placed.size()) != surplus) return;
  RootCause cause{"write-back-as-user-output"};
  cause.rules = {&kOutputArityMatchesCallSpec};
  for (const auto& [i, state] : placed) {
    cause.output_specs.push_back(slots[i].original);
    cause.states.push_back(state->target);
    cause.notes.push_back(spec_note(fmt::format("output_specs[{}] is declared a user output, but {}", i,
                                                facts_.describe(slots[i].value())),
                                    slots[i].original));
    EditProof proof{EditEvidence::kDataflow,
                    fmt::format("dataflow, the out_spec and elimination: the program returns {} user output(s) more "
                                "than its out_spec's {} leaves, `{}` {} is a fresh value, and {} is the only buffer "
                                "without a write-back of that shape and dtype",
                                surplus, *leaves, slots[i].value(), facts_.fact(slots[i].value()).meta,
                                state_words(*state))};
    apply(cause, {EditOp::kRetarget, i, -1, std::string(mutation_spec_kind(state->kind)), state->target},
          std::move(proof));
  }
  cause.message = placed.size() == 1
                      ? fmt::format("the write-back of {} is declared a user output", state_words(*placed[0].second))
                      : fmt::format("{} write-backs are declared user outputs", placed.size());
  add_cause(std::move(cause));
}

}  // namespace pt2lint::diagnosis
