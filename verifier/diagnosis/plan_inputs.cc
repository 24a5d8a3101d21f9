// Input side of the repair planner: specs that name a placeholder the graph does not have,
// and buffers declared as parameters.
#include <fmt/format.h>

#include <set>

#include "verifier/diagnosis/planner.h"
#include "verifier/program_index.h"

namespace pt2lint::diagnosis {
namespace {

// The saved entry of `fqn` in the weights config, or nullptr.
const ir::PayloadMeta* weight_entry(const ir::Program& program, std::string_view fqn) {
  if (!program.weights().present()) return nullptr;
  for (const ir::PayloadMetaEntry& entry : program.weights().config().config())
    if (entry.key() == fqn) return &entry.value();
  return nullptr;
}

}  // namespace

void Planner::plan_inputs() {
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
