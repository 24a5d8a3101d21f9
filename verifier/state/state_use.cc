#include "verifier/state/state_use.h"

#include "verifier/dataflow/effective_mutations.h"
#include "verifier/program_index.h"
#include "verifier/state/state_storage.h"

namespace pt2lint {
namespace {

// Graph inputs that some graph output or mutation output names.
std::vector<bool> output_or_written(const ProgramIndex& index) {
  std::vector<bool> marked(index.placeholder_names().size(), false);
  for (std::string_view output : index.output_names()) {
    std::optional<ValueDef> def = index.definition(output);
    if (def && def->placeholder >= 0) marked[static_cast<std::size_t>(def->placeholder)] = true;
  }
  for (const dataflow::ResolvedWriteBack& write_back : dataflow::resolved_write_backs(index))
    marked[static_cast<std::size_t>(write_back.target)] = true;
  return marked;
}

}  // namespace

std::vector<bool> used_placeholders(const ProgramIndex& index) {
  std::vector<bool> used = output_or_written(index);
  for (std::size_t p = 0; p < used.size(); ++p)
    if (!index.users(index.placeholder_names()[p]).empty()) used[p] = true;
  return used;
}

namespace {

void add_used(const ProgramIndex& index, std::unordered_set<std::string_view>& used) {
  const std::vector<bool> marked = used_placeholders(index);
  const StateStorage& storage = index.storage();
  for (int p = 0; p < static_cast<int>(index.placeholder_names().size()); ++p) {
    std::string_view name = index.placeholder_names()[static_cast<std::size_t>(p)];
    if (name.empty() || !marked[static_cast<std::size_t>(p)]) continue;
    const ir::InputSpec* spec = index.input_spec_for(name);
    if (spec == nullptr) continue;
    std::string_view fqn = input_spec_target(*spec);
    if (fqn.empty()) continue;
    used.insert(fqn);
    for (std::string_view alias : storage.aliases_of(fqn)) used.insert(alias);
  }
}

}  // namespace

bool ArchiveStateUse::used_anywhere(std::string_view fqn) {
  if (!built_) {
    built_ = true;
    for (const ir::Program* program : index_.archive_programs()) {
      if (program == &index_.program()) {
        add_used(index_, used_);
      } else {
        ProgramIndex other(*program);
        add_used(other, used_);
      }
    }
  }
  if (used_.count(fqn) != 0) return true;
  for (std::string_view alias : index_.storage().aliases_of(fqn))
    if (used_.count(alias) != 0) return true;
  return false;
}

std::vector<int> unused_state_placeholders(const ProgramIndex& index,
                                           bool (*wanted)(const ir::InputSpec& spec)) {
  std::vector<int> unused;
  const std::vector<bool> used = used_placeholders(index);
  std::optional<ArchiveStateUse> archive;
  for (int p = 0; p < static_cast<int>(used.size()); ++p) {
    std::string_view name = index.placeholder_names()[static_cast<std::size_t>(p)];
    if (name.empty() || used[static_cast<std::size_t>(p)]) continue;
    const ir::InputSpec* spec = index.input_spec_for(name);
    if (spec == nullptr || !wanted(*spec)) continue;
    if (!archive) archive.emplace(index);
    if (!archive->used_anywhere(input_spec_target(*spec))) unused.push_back(p);
  }
  return unused;
}

}  // namespace pt2lint
