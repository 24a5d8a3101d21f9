// Output side of the repair planner: pairs each output value with the write-back target or
// user output it really is (by update origin, then shape and dtype through the facts). The
// phases after pairing live beside it: lost write-backs (plan_lost_write_backs.cc), then the
// layout PyTorch pairs values by (plan_layout.cc).
#include <fmt/format.h>

#include <algorithm>
#include <map>

#include "analysis/program_index.h"
#include "analysis/state/name_suggestions.h"
#include "core/rule_catalogue.h"
#include "diagnosis/planner.h"
#include "diagnosis/rename_pattern.h"

namespace pt2lint::diagnosis {
namespace {

// Whether `placeholder` is the name torch.export gives the placeholder of a state named `fqn`
// (`b_`/`p_`/`c_` + the FQN with `.` as `_`): the graph's own record of the state's old name.
bool placeholder_attests(std::string_view placeholder, std::string_view fqn) {
  for (std::string_view prefix : {"b_", "p_", "c_"})
    if (placeholder.starts_with(prefix))
      return sanitize_state_name(placeholder.substr(prefix.size())) == sanitize_state_name(fqn);
  return false;
}

}  // namespace

Note spec_note(std::string text, int original) {
  if (original < 0) return Note(std::move(text));
  return Note(std::move(text), Location::of_output_spec(original));
}

std::string state_words(const DeclaredState& state) {
  return fmt::format("{} `{}`", state_kind_words(state.kind), state.target);
}

void Planner::plan_outputs() {
  if (!outputs_paired_) return;
  align_specs();
  for (const OutputSlot& slot : draft_.outputs)
    if (output_spec_arg_name(slot.spec) != slot.value()) return;  // still unpaired: no reading
  pair_gradients();
  if (!functional()) return;  // in-place writes are their own write-backs
  // Update origins name placeholders; each must stand for a declared state to pair by them.
  for (std::size_t p = 0; p < index_.placeholder_names().size(); ++p)
    if (!state_of_placeholder(static_cast<int>(p))) return;
  pair_write_backs();
  restore_lost_write_backs();
  restore_fresh_copy_backs();
  drop_extra_user_outputs();
  order_layout();
}

void Planner::align_specs() {
  auto& slots = draft_.outputs;
  std::vector<std::string_view> specs, values;
  for (const OutputSlot& slot : slots) {
    specs.push_back(output_spec_arg_name(slot.spec));
    values.push_back(slot.value());
  }
  if (specs == values) return;
  std::vector<std::string_view> sorted_specs = specs, sorted_values = values;
  std::sort(sorted_specs.begin(), sorted_specs.end());
  std::sort(sorted_values.begin(), sorted_values.end());
  if (sorted_specs != sorted_values) return;  // not a reordering: nothing to align

  RootCause cause;
  cause.kind = "misaligned-specs";
  for (std::size_t j = 0; j < slots.size(); ++j)
    if (specs[j] != values[j]) cause.output_specs.push_back(slots[j].original);
  for (std::size_t j = 0; j < slots.size(); ++j) {
    if (output_spec_arg_name(slots[j].spec) == slots[j].value()) continue;
    for (std::size_t k = j + 1; k < slots.size(); ++k) {
      if (output_spec_arg_name(slots[k].spec) != slots[j].value()) continue;
      apply(cause, {EditOp::kMoveSpec, static_cast<int>(k), static_cast<int>(j)});
      break;
    }
  }
  cause.message = fmt::format(
      "the output specs are out of step with the graph outputs: {} spec(s) describe the value at "
      "another position; {} puts each spec back beside its graph output",
      cause.output_specs.size(),
      cause.edits.size() == 1 ? describe_edit(cause.edits[0]) : fmt::format("{} moves", cause.edits.size()));
  cause.rules = {&kOutputSpecsMatchGraphOutputs};
  add_cause(std::move(cause));
}

void Planner::pair_write_backs() {
  auto& slots = draft_.outputs;
  std::map<int, int> written;  // placeholder -> slot whose value is its update, correctly named
  std::vector<int> wrong;
  for (std::size_t i = 0; i < slots.size(); ++i) {
    if (!is_mutation_output(slots[i].spec)) continue;
    const ValueFact& fact = facts_.fact(slots[i].value());
    std::optional<DeclaredState> named = resolve_target(slots[i].spec);
    if (fact.origin == Origin::kUpdate && named && named->placeholder == fact.placeholder &&
        !written.contains(fact.placeholder))
      written[fact.placeholder] = static_cast<int>(i);
    else
      wrong.push_back(static_cast<int>(i));
  }
  if (wrong.empty()) return;

  std::vector<Retarget> retargets;
  std::vector<int> to_user, duplicates, untouched, fresh;
  RootCause undefined{"undefined-write-back-value"}, unprovable{"unprovable-pairing"};
  for (int i : wrong) {
    const std::string value(slots[i].value());
    const ValueFact& fact = facts_.fact(value);
    std::optional<DeclaredState> named = resolve_target(slots[i].spec);
    const std::string written_name(output_spec_target(slots[i].spec));
    unprovable.output_specs.push_back(slots[i].original);
    // A value computed from a state's update but not of the state's shape and dtype (`(a + b) *
    // steps`, broadcast) can never be that state's write-back: it is placed as a fresh value.
    if (fact.origin == Origin::kUpdate && !facts_.meta_fits_state(fact.meta, fact.placeholder)) {
      fresh.push_back(i);
    } else if (fact.origin == Origin::kUpdate) {
      std::optional<DeclaredState> meant = state_of_placeholder(fact.placeholder);
      auto other = written.find(fact.placeholder);
      if (!meant || mutation_spec_kind(meant->kind).empty()) {
        unprovable.notes.push_back(facts_.describe(value) + ", which has no write-back kind");
      } else if (other != written.end() && slots[other->second].value() == value) {
        duplicates.push_back(i);
      } else if (other != written.end() || facts_.final_update(fact.placeholder) != value) {
        unprovable.notes.push_back(fmt::format(
            "{}, but the graph computes a later update of it, or another output writes it back",
            facts_.describe(value)));
      } else {
        written[fact.placeholder] = i;
        retargets.push_back({i, *meant, written_name, named});
      }
    } else if (fact.origin == Origin::kFresh) {
      fresh.push_back(i);  // decided below, once the updates have their targets
    } else if (fact.origin == Origin::kUndefined && named &&
               !written.contains(named->placeholder) &&
               !facts_.final_update(named->placeholder).empty() &&
               std::none_of(slots.begin(), slots.end(), [&](const OutputSlot& s) {
                 return s.value() == facts_.final_update(named->placeholder);
               })) {
      const std::string update(facts_.final_update(named->placeholder));
      written[named->placeholder] = i;
      undefined.output_specs.push_back(slots[i].original);
      undefined.states.push_back(named->target);
      undefined.message = fmt::format(
          "output_specs[{}] writes back `{}`, which nothing defines, to {}; the graph computes "
          "{}'s new value as `{}` and never returns it", i, value, state_words(*named),
          state_words(*named), update);
      undefined.notes.push_back(facts_.describe(update));
      apply(undefined, {EditOp::kSetValue, i, -1, {}, {}, update, value});
    } else if (fact.origin == Origin::kUnknown && named) {
      untouched.push_back(i);  // left as it is, if consistent with the rest (below)
    } else {
      unprovable.notes.push_back(facts_.describe(value));
    }
  }
  // A write-back of unknown origin stays as it is while the rest is solved around it, only
  // when nothing else writes its state, no edit moves a target off or onto that state, and
  // the values the edits claim are not read by an op nobody knows (it could be the later
  // update of their state).
  for (int i : untouched) {
    const DeclaredState named = *resolve_target(slots[i].spec);
    auto other = written.find(named.placeholder);
    const bool claimed = other != written.end() && other->second != i;
    const bool moved = std::any_of(retargets.begin(), retargets.end(), [&](const Retarget& r) {
      return (r.named && r.named->placeholder == named.placeholder) || r.meant.placeholder == named.placeholder;
    });
    if (claimed || moved)
      unprovable.notes.push_back(facts_.describe(slots[i].value()) + fmt::format(
          ", and {} is also written or named by another output", state_words(named)));
    else
      written[named.placeholder] = i;
  }
  // A fresh value declared a write-back may well be one: a state overwritten whole (`copy_`
  // from a new value) has a new value that the dataflow cannot tie to it. So it stays the
  // write-back of the state it names, unless another output writes that state or its shape or
  // dtype is not the state's; then it is a user output, if the out_spec's leaf count says so.
  // A fresh value naming no declared state cannot be placed.
  std::vector<int> nameless;  // fresh values whose target names no declared state
  std::vector<int> stayed;    // fresh values left the write-back of the state they name
  for (int i : fresh) {
    std::optional<DeclaredState> named = resolve_target(slots[i].spec);
    if (!named) {
      nameless.push_back(i);
      continue;
    }
    // A full overwrite computed from the old value of another state alone is an update of that
    // state (ValueTracer::update_of, as mutation-value-derives-from-target and the contract
    // read it); when that state is written back by another output too, the two write-backs
    // are exchanged, and this one belongs to the state it updates.
    if (const int source = facts_.fact(slots[i].value()).overwrite_of;
        source >= 0 && source != named->placeholder && !written.contains(source) &&
        facts_.meta_fits_state(facts_.fact(slots[i].value()).meta, source)) {
      const bool source_written_back = std::any_of(slots.begin(), slots.end(), [&](const OutputSlot& s) {
        if (&s == &slots[i] || !is_mutation_output(s.spec)) return false;
        const std::optional<DeclaredState> other = resolve_target(s.spec);
        return other && other->placeholder == source;
      });
      const std::optional<DeclaredState> meant = state_of_placeholder(source);
      if (source_written_back && meant && !mutation_spec_kind(meant->kind).empty()) {
        written[source] = i;
        retargets.push_back({i, *meant, std::string(output_spec_target(slots[i].spec)), named});
        continue;
      }
    }
    auto other = written.find(named->placeholder);
    const std::string& meta = facts_.fact(slots[i].value()).meta;
    const std::string& state_meta = facts_.fact(index_.placeholder_names()[named->placeholder]).meta;
    const bool fits = meta.empty() || state_meta.empty() || meta == state_meta;
    if ((other == written.end() || other->second == i) && fits) {
      written[named->placeholder] = i;
      stayed.push_back(i);
      continue;
    }
    to_user.push_back(i);
  }
  // User outputs that are the last update of a state no output writes back become its
  // write-back (restore_lost_write_backs), so they do not count as user outputs.
  int lost_returned = 0;
  for (const OutputSlot& slot : slots) {
    if (!slot.is_user()) continue;
    const ValueFact& fact = facts_.fact(slot.value());
    if (fact.origin == Origin::kUpdate && !written.contains(fact.placeholder) &&
        facts_.final_update(fact.placeholder) == fact.value)
      ++lost_returned;
    // A full overwrite of a buffer computed from its old value alone (`maximum(amax_w, ...)`),
    // returned once as a user output while nothing writes that buffer back and the graph computes
    // no update of it: restore_fresh_copy_backs makes it the buffer's write-back.
    else if (fact.origin == Origin::kFresh && fact.overwrite_of >= 0 && !written.contains(fact.overwrite_of) &&
             facts_.final_update(fact.overwrite_of).empty() && facts_.meta_fits_state(fact.meta, fact.overwrite_of) &&
             !fact.meta.empty() &&
             std::count_if(slots.begin(), slots.end(), [&](const OutputSlot& s) { return s.value() == fact.value; }) == 1 &&
             std::none_of(slots.begin(), slots.end(), [&](const OutputSlot& s) {
               const std::optional<DeclaredState> named = is_mutation_output(s.spec) ? resolve_target(s.spec) : std::nullopt;
               return named && named->placeholder == fact.overwrite_of && facts_.fact(s.value()).origin != Origin::kFresh;
             }))
      ++lost_returned;
  }
  const std::optional<std::size_t> leaves = out_spec_leaves();
  const bool arity_says_user =
      leaves && user_output_count() + static_cast<int>(to_user.size()) - lost_returned == static_cast<int>(*leaves);
  // A fresh value of a shape and dtype no state left without a write-back has is a user output
  // whatever the arity says; when the out_spec's leaf count says exactly those are the user
  // outputs, the others are write-backs, placed below.
  std::vector<int> sure_user, maybe_written;
  for (int i : to_user) {
    const std::string& meta = facts_.fact(slots[i].value()).meta;
    const bool fits_some = meta.empty() || std::any_of(states_.begin(), states_.end(), [&](const DeclaredState& st) {
      return st.placeholder >= 0 && !mutation_spec_kind(st.kind).empty() && !written.contains(st.placeholder) &&
             facts_.fact(index_.placeholder_names()[st.placeholder]).meta == meta;
    });
    (fits_some ? maybe_written : sure_user).push_back(i);
  }
  const bool arity_splits = !arity_says_user && leaves && !sure_user.empty() && !maybe_written.empty() &&
                            user_output_count() + static_cast<int>(sure_user.size()) - lost_returned ==
                                static_cast<int>(*leaves);
  if ((!to_user.empty() && !arity_says_user) || !nameless.empty()) {
    // Not user outputs: each is the write-back of a state, and when exactly one state is left
    // for each (below), that is the one.
    std::vector<int> homeless = nameless;
    if (!arity_says_user) {
      const std::vector<int>& not_user = arity_splits ? maybe_written : to_user;
      homeless.insert(homeless.end(), not_user.begin(), not_user.end());
    }
    if (place_by_elimination(homeless, stayed, written, retargets)) {
      if (arity_splits) to_user = sure_user;
      else if (!arity_says_user) to_user.clear();
    } else {
      for (int i : nameless)
        unprovable.notes.push_back(facts_.describe(slots[i].value()) +
                                   ", and its target names no declared state: which state it writes cannot be told");
      if (!to_user.empty() && !arity_says_user)
        unprovable.notes.push_back(fmt::format(
            "{} fresh value(s) are declared write-backs of states another output writes, and the out_spec's "
            "leaf count does not say they are user outputs", to_user.size()));
    }
  }
  if (!untouched.empty())
    for (const Retarget& r : retargets)
      if (facts_.read_by_unknown_op(r.meant.placeholder))
        unprovable.notes.push_back(fmt::format(
            "{} is read by an op without a known schema, whose result could be its later update",
            state_words(r.meant)));
  if (!unprovable.notes.empty()) {
    unprovable.message = "the write-backs are paired wrongly, but no single pairing can be proven";
    // The reasons go into the ambiguity itself: it is what `check`'s note and `fix`'s refusal quote.
    std::string why;
    for (const Note& note : unprovable.notes) why += (why.empty() ? "" : "; ") + note.text;
    unprovable.ambiguity = "some output values have no known update origin: " + why;
    add_cause(std::move(unprovable));
    return;
  }
  if (!undefined.edits.empty()) add_cause(std::move(undefined));

  // Classify the wrong targets: one renaming pattern, a permutation (swap, pairing), a
  // target written twice, or a name that is simply wrong.
  std::optional<RenamePattern> pattern, followed;
  bool one_pattern = !retargets.empty() && to_user.empty();
  // The other way round: the state itself was renamed (its spec and saved entry agree on the
  // new name), and only the targets kept the old names, which nothing saves any more.
  bool targets_lag = one_pattern;
  int attested = 0;  // retargets whose state's placeholder carries the old name
  for (const Retarget& r : retargets) {
    std::optional<RenamePattern> p = r.named ? std::nullopt : infer_rename(r.meant.target, r.written);
    if (!p || (pattern && !(*p == *pattern))) one_pattern = false;
    if (p && !pattern) pattern = p;
    std::optional<RenamePattern> f = r.named ? std::nullopt : infer_rename(r.written, r.meant.target);
    if (!f || (followed && !(*f == *followed)) || !saved_state(r.meant.target) || saved_state(r.written))
      targets_lag = false;
    if (f && !followed) followed = f;
    // The old name must be no other input's (a user input `x` is no lagging name of `amax_x`),
    // and its placeholder still carrying the old name votes for the rename.
    if (std::any_of(states_.begin(), states_.end(), [&](const DeclaredState& s) { return s.target == r.written; }) ||
        std::find(index_.placeholder_names().begin(), index_.placeholder_names().end(), r.written) !=
            index_.placeholder_names().end())
      targets_lag = false;
    if (r.meant.placeholder >= 0 &&
        placeholder_attests(index_.placeholder_names()[r.meant.placeholder], r.written))
      ++attested;
  }
  // One retarget alone is no consistent rename: it takes several states renamed by one pattern,
  // or a placeholder that still carries each old name (seed 41 of fix-restores-the-seed: a
  // single target retargeted to user input `x` is no rename of `amax_x`).
  if (targets_lag && retargets.size() < 2 && attested < static_cast<int>(retargets.size())) targets_lag = false;
  // fix --against ORIGINAL: the old names are ORIGINAL's, so the state goes back to them (its
  // input specs and saved entries), and `diff ORIGINAL REPAIRED` needs no mapping.
  const bool back_to_original =
      targets_lag && !original_states_.empty() && std::all_of(retargets.begin(), retargets.end(), [&](const Retarget& r) {
        return original_states_.contains(r.written) && r.meant.input_spec >= 0;
      });
  if (back_to_original) {
    RootCause back{"state-renamed-back"};
    for (const Retarget& r : retargets) {
      back.output_specs.push_back(slots[r.slot].original);
      back.input_specs.push_back(r.meant.input_spec);
      back.states.push_back(r.written);
      back.notes.push_back(fmt::format("`{}` -> `{}`", r.meant.target, r.written));
      const EditProof proof{EditEvidence::kOriginal,
                            fmt::format("ORIGINAL names the state `{}`, as the write-back target and the placeholder "
                                        "still do; the input spec{} renamed it `{}`",
                                        r.written, saved_state(r.meant.target) ? " and the saved entry" : "",
                                        r.meant.target)};
      const ir::InputSpec& spec = draft_.inputs[r.meant.input_spec];
      SignatureEdit edit{EditOp::kInputKind, r.meant.input_spec, -1, std::string(state_kind_name(r.meant.kind)),
                         r.written, {}, r.meant.target};
      if (spec.has_buffer()) edit.persistent = spec.buffer().persistent();
      apply(back, std::move(edit), proof);
      if (saved_state(r.meant.target)) apply(back, {EditOp::kRename, -1, -1, {}, r.written, {}, r.meant.target}, proof);
      // Later phases resolve targets against the declared states: the state has its old name again.
      for (DeclaredState& state : states_)
        if (state.input_spec == r.meant.input_spec) state.target = r.written;
    }
    back.message = fmt::format(
        "the state was renamed ({}) in its input specs and saved state, but {} write-back target(s) kept "
        "ORIGINAL's names: the state is renamed back to ORIGINAL's names", followed->describe(), retargets.size());
    add_cause(std::move(back));
    retargets.clear();
    targets_lag = false;
  }
  if (targets_lag) {
    RootCause follow{"state-renamed"};
    for (const Retarget& r : retargets) {
      follow.output_specs.push_back(slots[r.slot].original);
      follow.states.push_back(r.meant.target);
      follow.notes.push_back(fmt::format("`{}` -> `{}`", r.written, r.meant.target));
      apply(follow, {EditOp::kRename, r.slot, -1, std::string(mutation_spec_kind(r.meant.kind)),
                     r.meant.target, {}, r.written}, r.proof);
    }
    follow.message = fmt::format(
        "the state was renamed ({}) in its input specs and saved state, but {} write-back target(s) "
        "kept the old names: the targets follow the rename, and the program records the mapping "
        "(old -> new, in the notes) so that `pt2lint diff` follows it too", followed->describe(),
        follow.edits.size());
    add_cause(std::move(follow));
    retargets.clear();
  }
  RootCause pairing{"pairing"}, rename{"rename"}, duplicated{"duplicated-target"}, target{"wrong-target"};
  for (const Retarget& r : retargets) {
    const std::string kind(mutation_spec_kind(r.meant.kind));
    const std::string value(slots[r.slot].value());
    const int original = slots[r.slot].original;
    if (one_pattern) {
      rename.output_specs.push_back(original);
      rename.states.push_back(r.meant.target);
      rename.notes.push_back(fmt::format("`{}` -> `{}`", r.meant.target, r.written));
      apply(rename, {EditOp::kRename, r.slot, -1, kind, r.meant.target, {}, r.written}, r.proof);
      continue;
    }
    const bool permuted = r.named && std::any_of(retargets.begin(), retargets.end(), [&](const Retarget& o) {
      return o.meant.placeholder == r.named->placeholder;
    });
    const bool twice = r.named && written.contains(r.named->placeholder) && !permuted;
    RootCause& cause = permuted || !to_user.empty() ? pairing : twice ? duplicated : target;
    cause.output_specs.push_back(original);
    cause.states.push_back(r.meant.target);
    cause.states.push_back(r.written);
    cause.notes.push_back(spec_note(fmt::format("output_specs[{}] names `{}`, but {}", r.slot, r.written,
                                                facts_.describe(value)),
                                    original));
    apply(cause, {EditOp::kRetarget, r.slot, -1, kind, r.meant.target}, r.proof);
  }
  for (int i : to_user) {
    pairing.output_specs.push_back(slots[i].original);
    pairing.states.push_back(std::string(output_spec_target(slots[i].spec)));
    pairing.notes.push_back(spec_note(fmt::format("output_specs[{}] is declared a write-back of `{}`, "
                                                  "but {}: a user output",
                                                  i, output_spec_target(slots[i].spec),
                                                  facts_.describe(slots[i].value())),
                                      slots[i].original));
    apply(pairing, {EditOp::kRetarget, i, -1, "user_output"});
  }
  if (!rename.edits.empty()) {
    const std::size_t renamed = rename.edits.size();
    rename.message =
        renamed == 1
            ? fmt::format("the write-back target was renamed on one side only ({}); the mapping "
                          "(state -> name written) is in the notes",
                          pattern->describe())
            : fmt::format("{} write-back targets follow one renaming pattern, {}: a pass renamed the "
                          "state on one side only; the mapping (state -> name written) is in the notes",
                          renamed, pattern->describe());
    rename.repair = renamed == 1
                        ? std::string("rename the target back (the edit in the JSON report's fix.edits)")
                        : fmt::format("apply the inverse mapping to all {} targets (the edits in the JSON "
                                      "report's fix.edits rename each)",
                                      renamed);
    add_cause(std::move(rename));
  }
  if (!target.edits.empty()) {
    target.message = fmt::format("{} write-back(s) name a state their value does not update; the "
                                 "update origin of each value says which state it writes",
                                 target.edits.size());
    add_cause(std::move(target));
  }
  if (!duplicated.edits.empty()) {
    duplicated.message = fmt::format(
        "a state is written back twice while {} other(s) are never written back: each orphaned "
        "update goes back to the state it updates", duplicated.edits.size());
    add_cause(std::move(duplicated));
  }
  if (pairing.edits.size() == 1 && to_user.size() == 1) {
    pairing.kind = "user-output-as-write-back";
    pairing.message = fmt::format("output_specs[{}] declares a user output, `{}`, as a write-back of "
                                  "`{}`, which another output already writes back", to_user[0],
                                  slots[to_user[0]].value(), pairing.states.front());
    pairing.rules = {&kOutputArityMatchesCallSpec};
    add_cause(std::move(pairing));
  } else if (!pairing.edits.empty()) {
    const bool swap = pairing.edits.size() == 2 && to_user.empty();
    pairing.kind = swap ? "swap" : "pairing";
    pairing.message =
        swap ? fmt::format("the write-backs of `{}` and `{}` are swapped: each value is the update "
                           "of the other state", pairing.edits[0].target, pairing.edits[1].target)
             : fmt::format("output values are paired with the wrong write-back targets (as a pass "
                           "that pairs copy-backs by position leaves them); {} position(s) change "
                           "role, matched by update origin, shape and dtype", pairing.edits.size());
    if (!to_user.empty())
      pairing.rules = {&kMutationsBeforeUserOutputs, &kOutputArityMatchesCallSpec};
    add_cause(std::move(pairing));
  }
  // Last, from the back: removals shift the positions after them.
  for (auto it = duplicates.rbegin(); it != duplicates.rend(); ++it) {
    RootCause dup{"duplicated-write-back"};
    dup.output_specs.push_back(slots[*it].original);
    dup.states.push_back(std::string(output_spec_target(slots[*it].spec)));
    dup.message = fmt::format("output_specs[{}] writes back `{}` a second time", *it, slots[*it].value());
    apply(dup, {EditOp::kRemove, *it});
    add_cause(std::move(dup));
  }
}

}  // namespace pt2lint::diagnosis
