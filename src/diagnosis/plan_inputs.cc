// Input side of the repair planner: specs that name a placeholder the graph does not have,
// and buffers declared as parameters.
#include <fmt/format.h>

#include <set>

#include "analysis/dataflow/tensor_meta_text.h"
#include "analysis/program_index.h"
#include "analysis/state/name_suggestions.h"
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
  std::string kind;  // "buffer", "parameter", "tensor_constant"
  bool persistent = true;
  const ir::TensorMeta* meta = nullptr;
};

// The kind torch.export's placeholder prefix says (`b_`, `p_`, `c_`), and the name after it.
std::pair<std::string_view, std::string_view> placeholder_kind(std::string_view name) {
  if (name.starts_with("b_")) return {"buffer", name.substr(2)};
  if (name.starts_with("p_")) return {"parameter", name.substr(2)};
  if (name.starts_with("c_")) return {"tensor_constant", name.substr(2)};
  return {{}, {}};
}

}  // namespace

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
  const std::string_view kind = kind_of_placeholder;
  if (kind.empty()) return;
  std::set<std::string_view> declared;
  for (const ir::InputSpec& spec : draft_.inputs) declared.insert(input_spec_target(spec));
  std::vector<SavedState> saved;
  auto collect = [&](const ir::StateSource& source, bool weights) {
    if (!source.present()) return;
    for (const ir::PayloadMetaEntry& entry : source.config().config()) {
      if (declared.contains(entry.key())) continue;
      const std::string_view entry_kind =
          weights ? (entry.value().is_param() ? "parameter" : "buffer") : kind == "buffer" ? "buffer" : "tensor_constant";
      saved.push_back({entry.key(), std::string(entry_kind), weights, &entry.value().tensor_meta()});
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
  cause.rule_ids = {"PT201"};
  SignatureEdit edit{EditOp::kAddInput, static_cast<int>(j), -1, match->kind, match->fqn,
                     std::string(placeholder), {}};
  if (match->kind == "buffer") edit.persistent = match->persistent;
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
      cause.notes.push_back(fmt::format("input_specs[{}] names `{}`; graph input {} is `{}`", j,
                                        name, j, placeholders[j]));
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
    SignatureEdit edit{EditOp::kInputKind, static_cast<int>(j), -1, "buffer", fqn, {}, {}};
    edit.persistent = true;
    apply(cause, std::move(edit));
    add_cause(std::move(cause));
  }
  declare_states();
}

}  // namespace pt2lint::diagnosis
