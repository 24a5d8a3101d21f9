// Input side of the repair planner: specs that name a placeholder the graph does not have,
// and buffers declared as parameters.
#include <fmt/format.h>

#include <algorithm>
#include <set>

#include "analysis/dataflow/tensor_meta_text.h"
#include "analysis/program_index.h"
#include "analysis/state/name_suggestions.h"
#include "core/rule_catalogue.h"
#include "diagnosis/edit_labels.h"
#include "diagnosis/planner.h"

namespace pt2lint::diagnosis {
namespace {

// The saved entry of `fqn` in the weights config, or nullptr.
const ir::PayloadMeta* weight_entry(const ir::Program& program, std::string_view fqn) {
  if (!program.weights().present()) return nullptr;
  for (const ir::PayloadMetaEntry& entry : program.weights().config().config())
    if (entry.key() == fqn) return &entry.value();
  return nullptr;
}

// A saved state entry that may be the one a dropped input spec declared.
struct SavedState {
  std::string fqn;
  StateKind kind = StateKind::kNone;  // buffer, parameter, tensor constant
  bool persistent = true;
  const ir::TensorMeta* meta = nullptr;
};

// The kind torch.export's placeholder prefix says (`b_`, `p_`, `c_`), and the name after it.
std::pair<StateKind, std::string_view> placeholder_kind(std::string_view name) {
  if (name.starts_with("b_")) return {StateKind::kBuffer, name.substr(2)};
  if (name.starts_with("p_")) return {StateKind::kParameter, name.substr(2)};
  if (name.starts_with("c_")) return {StateKind::kTensorConstant, name.substr(2)};
  return {StateKind::kNone, {}};
}

// How many write-back targets name `fqn`.
int targets_naming(const std::vector<OutputSlot>& slots, std::string_view fqn) {
  int count = 0;
  for (const OutputSlot& slot : slots)
    if (is_mutation_output(slot.spec) && output_spec_target(slot.spec) == fqn) ++count;
  return count;
}

// Whether `placeholder` is the name torch.export gives the placeholder of state `fqn`.
bool placeholder_names(std::string_view placeholder, std::string_view fqn) {
  const std::string_view rest = placeholder_kind(placeholder).second;
  return !rest.empty() && sanitize_state_name(rest) == sanitize_state_name(fqn);
}

}  // namespace

// A spec's state and a saved entry disagree on a name: one spec names a state nothing saves,
// one saved entry of the same shape and dtype is declared by no spec. The sources vote: the
// spec, the entry, the write-back targets and the placeholder's torch.export name. The
// majority's name wins; a tie is ambiguous and lists both candidates (docs/fix.md).
void Planner::reconcile_state_names() {
  const ir::Program& program = index_.program();
  struct Entry {
    std::string key;
    const ir::TensorMeta* meta;
    int saved_rank = -1;  // a weights entry: its place in the order of the saved files (`weight_N`)
  };
  std::vector<Entry> entries;
  std::set<std::string_view> saved, declared;
  std::vector<std::pair<long, std::size_t>> weight_files;  // (N of `weight_N`, entry)
  bool numbered = true;
  for (const ir::StateSource* source : {&program.weights(), &program.constants()}) {
    if (!source->present()) continue;
    for (const ir::PayloadMetaEntry& entry : source->config().config()) {
      if (source == &program.weights()) {
        const std::string& path = entry.value().path_name();
        const std::size_t digits = path.find_last_not_of("0123456789") + 1;
        if (digits >= path.size() || path.size() - digits > 9) numbered = false;
        else weight_files.emplace_back(std::stol(path.substr(digits)), entries.size());
      }
      entries.push_back({entry.key(), &entry.value().tensor_meta()});
      saved.insert(entry.key());
    }
  }
  // torch.export.save numbers the weight files in input-spec order of the parameters and
  // persistent buffers (measured on every clean export in tests/data): the k-th file is the k-th
  // such spec's, whatever the entries are called. Used only where it agrees with the names.
  std::vector<int> saved_spec_rank(draft_.inputs.size(), -1);
  {
    int rank = 0;
    for (std::size_t j = 0; j < draft_.inputs.size(); ++j) {
      const ir::InputSpec& spec = draft_.inputs[j];
      if (spec.has_parameter() || (spec.has_buffer() && spec.buffer().persistent())) saved_spec_rank[j] = rank++;
    }
    std::sort(weight_files.begin(), weight_files.end());
    const bool distinct = std::adjacent_find(weight_files.begin(), weight_files.end(), [](const auto& a, const auto& b) {
                            return a.first == b.first;
                          }) == weight_files.end();
    if (numbered && distinct && static_cast<int>(weight_files.size()) == rank)
      for (std::size_t k = 0; k < weight_files.size(); ++k) entries[weight_files[k].second].saved_rank = static_cast<int>(k);
    else
      std::fill(saved_spec_rank.begin(), saved_spec_rank.end(), -1);
  }
  if (entries.empty()) return;
  std::vector<int> orphan_specs;
  for (std::size_t j = 0; j < draft_.inputs.size(); ++j) {
    const ir::InputSpec& spec = draft_.inputs[j];
    if (!spec.has_buffer() && !spec.has_parameter() && !spec.has_tensor_constant()) continue;
    declared.insert(input_spec_target(spec));
    if (!saved.contains(input_spec_target(spec))) orphan_specs.push_back(static_cast<int>(j));
  }
  std::vector<const Entry*> orphan_entries;
  for (const Entry& entry : entries)
    if (!declared.contains(entry.key)) orphan_entries.push_back(&entry);
  if (orphan_specs.empty() || orphan_entries.empty()) return;

  auto matches = [&](int j) {
    std::vector<const Entry*> out;
    const ir::TensorMeta* meta = index_.tensor_meta(input_spec_arg_name(draft_.inputs[j]));
    if (meta == nullptr) return out;
    for (const Entry* entry : orphan_entries)
      if (dataflow::meta_text(*entry->meta) == dataflow::meta_text(*meta)) out.push_back(entry);
    return out;
  };
  // Among several entries of the same shape and dtype, the placeholder's torch.export name
  // (an exact rule) picks one; failing that, only a near name can: the entry whose name holds
  // the spec's last name component. Such an edit is unsafe (--unsafe-fixes).
  auto last = [](std::string_view n) {
    return n.substr(n.rfind('.') == std::string_view::npos ? 0 : n.rfind('.') + 1);
  };
  auto near = [&](int j, std::string_view b) {
    const std::string_view a = input_spec_target(draft_.inputs[j]);
    if (placeholder_names(input_spec_arg_name(draft_.inputs[j]), b)) return true;
    return !last(a).empty() && (b.find(last(a)) != std::string_view::npos || a.find(last(b)) != std::string_view::npos);
  };
  auto exact = [&](int j, std::string_view b) { return placeholder_names(input_spec_arg_name(draft_.inputs[j]), b); };
  bool by_file_order = false;  // set by narrow: the saved files' order agreed with the near name
  auto narrow = [&](int j, std::vector<const Entry*>& list, bool& by_name) {
    by_name = false;
    by_file_order = false;
    if (list.size() <= 1) return;
    std::vector<const Entry*> named = list;
    std::erase_if(named, [&](const Entry* e) { return !exact(j, e->key); });
    if (named.size() == 1) {
      list = named;
      return;
    }
    by_name = true;
    std::erase_if(list, [&](const Entry* e) { return !near(j, e->key); });
    // The near name and the saved files' order agree: two sources, neither of them a guess.
    if (list.size() == 1 && saved_spec_rank[j] >= 0 && list.front()->saved_rank == saved_spec_rank[j]) {
      by_name = false;
      by_file_order = true;
    }
  };
  for (int j : orphan_specs) {
    std::vector<const Entry*> candidates = matches(j);
    bool by_name = false;
    narrow(j, candidates, by_name);
    const bool file_order = by_file_order;
    if (candidates.size() != 1) continue;
    const Entry& entry = *candidates.front();
    // The entry must be the only candidate of this spec alone.
    if (std::count_if(orphan_specs.begin(), orphan_specs.end(), [&](int k) {
          std::vector<const Entry*> other = matches(k);
          bool ignored = false;
          narrow(k, other, ignored);
          return std::find(other.begin(), other.end(), &entry) != other.end();
        }) != 1)
      continue;
    const std::string spec_name(input_spec_target(draft_.inputs[j]));
    const std::string_view placeholder = input_spec_arg_name(draft_.inputs[j]);
    const int targets_spec = targets_naming(draft_.outputs, spec_name);
    const int targets_entry = targets_naming(draft_.outputs, entry.key);
    const int for_spec = 1 + (targets_spec > 0) + placeholder_names(placeholder, spec_name);
    const int for_entry = 1 + (targets_entry > 0) + placeholder_names(placeholder, entry.key);
    RootCause cause;
    cause.input_specs.push_back(j);
    cause.states = {spec_name, entry.key};
    cause.rules = {&kStateDictMismatch};
    cause.notes.push_back(fmt::format(
        "input_specs[{}] declares `{}`, which nothing saves; the saved entry `{}` ({}) is declared by "
        "no spec", j, spec_name, entry.key, dataflow::meta_text(*entry.meta)));
    cause.notes.push_back(fmt::format(
        "for `{}`: the input spec{}{}; for `{}`: the saved entry{}{}", spec_name,
        targets_spec > 0 ? ", the write-back targets" : "",
        placeholder_names(placeholder, spec_name) ? fmt::format(", the placeholder `{}`", placeholder) : "",
        entry.key, targets_entry > 0 ? ", the write-back targets" : "",
        placeholder_names(placeholder, entry.key) ? fmt::format(", the placeholder `{}`", placeholder) : ""));
    if (for_spec == for_entry) {
      cause.kind = "state-name-disagrees";
      cause.message = fmt::format("input_specs[{}] names `{}` and the saved state names `{}`", j,
                                  spec_name, entry.key);
      cause.ambiguity = fmt::format("as many sources say `{}` as `{}`: the candidates are renaming the "
                                    "spec to `{}` or the entry to `{}`", spec_name, entry.key, entry.key,
                                    spec_name);
      add_cause(std::move(cause));
      continue;
    }
    // Whichever side is renamed back, the same evidence decided it.
    EditProof proof = by_name      ? by_name_similarity(entry.key)
                      : file_order ? EditProof{EditEvidence::kSavedState,
                                               fmt::format("the saved state: several entries have the spec's shape "
                                                           "and dtype; `{}` is saved in the file at the spec's place "
                                                           "in input-spec order (torch.export.save numbers the weight "
                                                           "files so), and its name agrees",
                                                           entry.key)}
                                   : EditProof{};
    if (for_entry > for_spec) {
      cause.kind = "spec-renamed";
      cause.message = fmt::format("input_specs[{}] was renamed to `{}` on its own: the saved state{} "
                                  "name the state `{}`", j, spec_name,
                                  targets_entry > 0 ? ", the write-back targets" : "", entry.key);
      // The same kind of input, declaring the entry's name (input_kind keeps the placeholder).
      const ir::InputSpec& spec = draft_.inputs[j];
      SignatureEdit edit{EditOp::kInputKind, j, -1, std::string(state_kind_name(state_kind_of(spec))), entry.key, {},
                         spec_name};
      if (spec.has_buffer()) edit.persistent = spec.buffer().persistent();
      apply(cause, std::move(edit), std::move(proof));
    } else {
      cause.kind = "state-entry-renamed";
      cause.message = fmt::format("the saved state entry `{}` was renamed on its own: input_specs[{}]{} "
                                  "name the state `{}`", entry.key, j,
                                  targets_spec > 0 ? ", the write-back targets" : "", spec_name);
      // A rename without an output spec: the saved entry's key.
      apply(cause, {EditOp::kRename, -1, -1, {}, spec_name, {}, entry.key}, std::move(proof));
    }
    add_cause(std::move(cause));
  }
}

// A tensor constant that an output writes back, with a value the graph computes as its last
// update: only a buffer is written, so it was one (a pass froze it). It becomes a buffer again;
// non-persistent, since its tensor is saved with the constants, where PyTorch keeps those.
void Planner::restore_written_constants() {
  if (!functional()) return;
  for (std::size_t j = 0; j < draft_.inputs.size(); ++j) {
    const ir::InputSpec& spec = draft_.inputs[j];
    if (!spec.has_tensor_constant()) continue;
    const std::string fqn = spec.tensor_constant().tensor_constant_name();
    std::optional<ValueDef> def = index_.definition(spec.tensor_constant().arg().name());
    if (!def || def->placeholder < 0 || !index_.program().constants().present()) continue;
    bool saved = false;
    for (const ir::PayloadMetaEntry& entry : index_.program().constants().config().config())
      saved |= entry.key() == fqn;
    if (!saved) continue;
    int write_back = -1;
    for (std::size_t i = 0; i < draft_.outputs.size(); ++i) {
      const ir::OutputSpec& out = draft_.outputs[i].spec;
      if (!out.has_buffer_mutation() || out.buffer_mutation().buffer_name() != fqn) continue;
      const ValueFact& fact = facts_.fact(argument_value_name(draft_.outputs[i].output));
      // Its last update, or a full overwrite computed from its old value alone (`copy_`, an
      // observer's `maximum(amax, ...)`), of its shape and dtype, where the graph computes no update.
      const bool update = fact.origin == Origin::kUpdate && fact.placeholder == def->placeholder &&
                          facts_.final_update(def->placeholder) == fact.value;
      const bool overwrite = fact.origin == Origin::kFresh && fact.overwrite_of == def->placeholder &&
                             !fact.meta.empty() && facts_.meta_fits_state(fact.meta, def->placeholder) &&
                             facts_.final_update(def->placeholder).empty();
      if (write_back >= 0 || !(update || overwrite)) {
        write_back = -2;
        break;
      }
      write_back = static_cast<int>(i);
    }
    if (write_back < 0) continue;
    RootCause cause;
    cause.kind = "constant-was-buffer";
    cause.message = fmt::format("input_specs[{}] declares `{}` a tensor constant, but output_specs[{}] "
                                "writes back its update: only a buffer is written", j, fqn, write_back);
    cause.notes.push_back(facts_.describe(argument_value_name(draft_.outputs[write_back].output)));
    cause.input_specs.push_back(static_cast<int>(j));
    cause.output_specs.push_back(draft_.outputs[write_back].original);
    cause.states.push_back(fqn);
    cause.rules = {&kConstantsAreNotWritten};
    SignatureEdit edit{EditOp::kInputKind, static_cast<int>(j), -1, std::string(state_kind_name(StateKind::kBuffer)),
                       fqn, {}, {}};
    edit.persistent = false;
    apply(cause, std::move(edit));
    add_cause(std::move(cause));
  }
}

// One input spec missing: the placeholder it described has no spec, every other spec still
// matches its placeholder in order, and exactly one saved state entry no spec declares has
// that placeholder's name (as torch.export derives it) and its tensor metadata.
void Planner::restore_dropped_input() {
  const std::vector<std::string_view>& placeholders = index_.placeholder_names();
  if (draft_.inputs.size() + 1 != placeholders.size()) return;
  std::size_t j = 0;
  while (j < draft_.inputs.size() && input_spec_arg_name(draft_.inputs[j]) == placeholders[j]) ++j;
  for (std::size_t k = j; k < draft_.inputs.size(); ++k)
    if (input_spec_arg_name(draft_.inputs[k]) != placeholders[k + 1]) return;
  const std::string_view placeholder = placeholders[j];
  // Not a structured binding: clang 14 (the fuzz build) cannot capture one in a lambda.
  const auto [kind_of_placeholder, rest] = placeholder_kind(placeholder);
  const StateKind kind = kind_of_placeholder;
  if (kind == StateKind::kNone) return;
  std::set<std::string_view> declared;
  for (const ir::InputSpec& spec : draft_.inputs) declared.insert(input_spec_target(spec));
  std::vector<SavedState> saved;
  auto collect = [&](const ir::StateSource& source, bool weights) {
    if (!source.present()) return;
    for (const ir::PayloadMetaEntry& entry : source.config().config()) {
      if (declared.contains(entry.key())) continue;
      const StateKind entry_kind =
          weights ? (entry.value().is_param() ? StateKind::kParameter : StateKind::kBuffer)
          : kind == StateKind::kBuffer ? StateKind::kBuffer
                                       : StateKind::kTensorConstant;
      saved.push_back({entry.key(), entry_kind, weights, &entry.value().tensor_meta()});
    }
  };
  collect(index_.program().weights(), true);
  collect(index_.program().constants(), false);
  const ir::TensorMeta* meta = index_.tensor_meta(placeholder);
  const SavedState* match = nullptr;
  int matches = 0;
  for (const SavedState& state : saved) {
    if (state.kind != kind || sanitize_state_name(state.fqn) != sanitize_state_name(rest)) continue;
    if (meta == nullptr || dataflow::meta_text(*meta) != dataflow::meta_text(*state.meta)) continue;
    match = &state;
    ++matches;
  }
  if (matches != 1) return;
  RootCause cause;
  cause.kind = "input-spec-dropped";
  cause.message = fmt::format("the input spec of placeholder `{}` was dropped: graph input {} has no "
                              "spec, and the saved {} `{}` is declared by none", placeholder, j,
                              state_kind_words(kind), match->fqn);
  cause.notes.push_back(fmt::format("`{}` is the name torch.export gives the placeholder of `{}`, and "
                                    "their shapes and dtypes agree ({})", placeholder, match->fqn,
                                    dataflow::meta_text(*meta)));
  for (std::size_t k = j; k <= draft_.inputs.size(); ++k) cause.input_specs.push_back(static_cast<int>(k));
  cause.states.push_back(match->fqn);
  for (const OutputSlot& slot : draft_.outputs)  // write-backs that could not resolve without it
    if (output_spec_target(slot.spec) == match->fqn) cause.output_specs.push_back(slot.original);
  cause.rules = {&kInputSpecsMatchPlaceholders};
  SignatureEdit edit{EditOp::kAddInput, static_cast<int>(j), -1, std::string(state_kind_name(match->kind)),
                     match->fqn, std::string(placeholder), {}};
  if (match->kind == StateKind::kBuffer) edit.persistent = match->persistent;
  apply(cause, std::move(edit));
  add_cause(std::move(cause));
}

void Planner::plan_inputs() {
  restore_dropped_input();
  const std::vector<std::string_view>& placeholders = index_.placeholder_names();
  if (draft_.inputs.size() == placeholders.size()) {
    std::set<std::string_view> named;
    for (const ir::InputSpec& spec : draft_.inputs) named.insert(input_spec_arg_name(spec));
    RootCause cause;
    cause.kind = "placeholder-renamed";
    for (std::size_t j = 0; j < placeholders.size(); ++j) {
      const std::string name(input_spec_arg_name(draft_.inputs[j]));
      // Only a name nothing defines, at the position of a placeholder no spec names: any
      // other mismatch (a reordering, a spec of another value) has more than one reading.
      if (name.empty() || name == placeholders[j] || index_.definition(name) ||
          named.contains(placeholders[j]))
        continue;
      cause.notes.emplace_back(fmt::format("input_specs[{}] names `{}`; graph input {} is `{}`", j,
                                           name, j, placeholders[j]),
                               Location::of_input_spec(static_cast<int>(j)));
      cause.input_specs.push_back(static_cast<int>(j));
      apply(cause, {EditOp::kRenameInput, static_cast<int>(j), -1, {}, {},
                    std::string(placeholders[j]), name});
    }
    if (!cause.edits.empty()) {
      cause.message = cause.edits.size() == 1
                          ? fmt::format("input_specs[{}] was renamed on one side: it names `{}`, "
                                        "but the graph input at its position is `{}`",
                                        cause.edits[0].spec, cause.edits[0].from, cause.edits[0].value)
                          : fmt::format("{} input specs were renamed on one side: each names a "
                                        "value nothing defines, where its graph input has another name",
                                        cause.edits.size());
      add_cause(std::move(cause));
    }
  }

  reconcile_state_names();
  restore_written_constants();
  // A buffer declared as a parameter: the saved weights say which it is.
  for (std::size_t j = 0; j < draft_.inputs.size(); ++j) {
    const ir::InputSpec& spec = draft_.inputs[j];
    if (!spec.has_parameter()) continue;
    const std::string fqn = spec.parameter().parameter_name();
    const ir::PayloadMeta* saved = weight_entry(index_.program(), fqn);
    if (saved == nullptr || saved->is_param()) continue;
    RootCause cause;
    cause.kind = "buffer-declared-as-parameter";
    cause.message = fmt::format("input_specs[{}] declares `{}` a parameter, but the saved weights "
                                "hold it as a buffer (is_param false)", j, fqn);
    cause.notes.push_back("a buffer saved with the state dict is persistent");
    cause.input_specs.push_back(static_cast<int>(j));
    cause.states.push_back(fqn);
    SignatureEdit edit{EditOp::kInputKind, static_cast<int>(j), -1, std::string(state_kind_name(StateKind::kBuffer)),
                       fqn, {}, {}};
    edit.persistent = true;
    apply(cause, std::move(edit));
    add_cause(std::move(cause));
  }
  declare_states();
}

}  // namespace pt2lint::diagnosis
