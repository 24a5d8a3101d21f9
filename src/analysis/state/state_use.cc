#include "analysis/state/state_use.h"

#include <optional>
#include <string_view>
#include <unordered_set>

#include "analysis/dataflow/effective_mutations.h"
#include "analysis/program_index.h"
#include "analysis/state/state_storage.h"

namespace pt2lint {
namespace {

// By graph input: whether a node reads it, a graph output returns it or a mutation output
// writes it back.
std::vector<bool> used_placeholders(const ProgramIndex& index) {
  std::vector<bool> used(index.placeholder_names().size(), false);
  for (std::size_t p = 0; p < used.size(); ++p)
    used[p] = !index.users(index.placeholder_names()[p]).empty();
  for (std::string_view output : index.output_names()) {
    std::optional<ValueDef> def = index.definition(output);
    if (def && def->placeholder >= 0) used[static_cast<std::size_t>(def->placeholder)] = true;
  }
  for (const dataflow::ResolvedWriteBack& write_back : dataflow::resolved_write_backs(index))
    used[static_cast<std::size_t>(write_back.target)] = true;
  return used;
}

// Adds every state name `index` uses, with the other names of its storage.
void add_used_names(const ProgramIndex& index, std::unordered_set<std::string_view>& names) {
  const std::vector<bool> used = used_placeholders(index);
  for (std::size_t p = 0; p < used.size(); ++p) {
    if (!used[p]) continue;
    const ir::InputSpec* spec = index.input_spec_for(index.placeholder_names()[p]);
    std::string_view fqn = spec == nullptr ? std::string_view() : input_spec_target(*spec);
    if (fqn.empty()) continue;
    names.insert(fqn);
    for (std::string_view alias : index.storage().aliases_of(fqn)) names.insert(alias);
  }
}

// The state names any program of the file uses; the names view the programs' own strings.
std::unordered_set<std::string_view> names_used_in_file(const ProgramIndex& index) {
  std::unordered_set<std::string_view> names;
  for (const ir::Program* program : index.archive_programs()) {
    if (program == &index.program()) {
      add_used_names(index, names);
    } else {
      add_used_names(ProgramIndex(*program), names);
    }
  }
  return names;
}

}  // namespace

std::vector<int> unused_state_placeholders(const ProgramIndex& index,
                                           bool (*wanted)(const ir::InputSpec& spec)) {
  std::vector<int> unused;
  const std::vector<bool> used = used_placeholders(index);
  std::optional<std::unordered_set<std::string_view>> used_in_file;
  for (std::size_t p = 0; p < used.size(); ++p) {
    if (used[p]) continue;
    const ir::InputSpec* spec = index.input_spec_for(index.placeholder_names()[p]);
    if (spec == nullptr || !wanted(*spec)) continue;
    if (!used_in_file) used_in_file = names_used_in_file(index);
    // Each program adds the aliases its own configs know; this program's may know more.
    auto used_name = [&](std::string_view name) { return used_in_file->count(name) != 0; };
    std::string_view fqn = input_spec_target(*spec);
    if (used_name(fqn)) continue;
    bool alias_used = false;
    for (std::string_view alias : index.storage().aliases_of(fqn)) alias_used = alias_used || used_name(alias);
    if (!alias_used) unused.push_back(static_cast<int>(p));
  }
  return unused;
}

}  // namespace pt2lint
