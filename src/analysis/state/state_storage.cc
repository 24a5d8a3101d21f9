#include "analysis/state/state_storage.h"

#include <fmt/format.h>

#include "analysis/program_index.h"

namespace pt2lint {

StateStorage::StateStorage(const ir::Program& program) {
  // Input specs first, so the canonical name of a storage is the one the program lifts.
  NameTable placeholders;
  std::vector<int> first_name;  // by placeholder id: the first name lifted from it
  for (const ir::InputSpec& spec : program.program().graph_module().signature().input_specs()) {
    std::string_view fqn = input_spec_target(spec);
    if (fqn.empty()) continue;
    const int placeholder = placeholders.intern(input_spec_arg_name(spec));
    const int id = add(fqn);
    if (placeholder == static_cast<int>(first_name.size())) {
      first_name.push_back(id);
    } else {
      join(first_name[static_cast<std::size_t>(placeholder)], id,
           fmt::format("input specs lift them from the same placeholder `{}`", input_spec_arg_name(spec)));
    }
  }
  join_by_record(program.weights(), "weights");
  join_by_record(program.constants(), "constants");
  flatten();
}

void StateStorage::join_by_record(const ir::StateSource& source, std::string_view label) {
  NameTable records;
  std::vector<int> first_name;  // by record id: the first entry naming it
  for (const ir::PayloadMetaEntry& entry : source.config().config()) {
    const std::string& record = entry.value().path_name();
    if (record.empty()) continue;
    const int record_id = records.intern(record);
    const int id = add(entry.key());
    if (record_id == static_cast<int>(first_name.size())) {
      first_name.push_back(id);
    } else {
      join(first_name[static_cast<std::size_t>(record_id)], id,
           fmt::format("they name the same {} record `{}`", label, record));
    }
  }
}

int StateStorage::add(std::string_view fqn) {
  const int id = names_.intern(fqn);
  if (id == static_cast<int>(fqns_.size())) {
    fqns_.push_back(fqn);
    parent_.push_back(id);
    reason_.emplace_back();
  }
  return id;
}

int StateStorage::find_root(int id) {
  while (parent_[static_cast<std::size_t>(id)] != id) {
    int& up = parent_[static_cast<std::size_t>(id)];
    up = parent_[static_cast<std::size_t>(up)];  // path halving
    id = up;
  }
  return id;
}

void StateStorage::flatten() {
  size_.assign(fqns_.size(), 0);
  for (int id = 0; id < static_cast<int>(fqns_.size()); ++id) {
    parent_[static_cast<std::size_t>(id)] = find_root(id);
    has_aliases_ |= ++size_[static_cast<std::size_t>(parent_[static_cast<std::size_t>(id)])] > 1;
  }
  // Each group's members, in id order, one run per root (counting sort): aliases_of costs the
  // group's size, not every name's.
  group_start_.assign(fqns_.size() + 1, 0);
  for (std::size_t root = 0; root < fqns_.size(); ++root) group_start_[root + 1] = group_start_[root] + size_[root];
  group_members_.assign(fqns_.size(), 0);
  std::vector<int> filled(group_start_.begin(), group_start_.end() - 1);
  for (int id = 0; id < static_cast<int>(fqns_.size()); ++id) {
    group_members_[static_cast<std::size_t>(filled[static_cast<std::size_t>(parent_[static_cast<std::size_t>(id)])]++)] = id;
  }
}

void StateStorage::join(int a, int b, std::string reason) {
  a = find_root(a);
  b = find_root(b);
  if (a == b) return;
  // The lower id (listed first) stays the root, so it is the canonical name.
  if (b < a) std::swap(a, b);
  parent_[static_cast<std::size_t>(b)] = a;
  std::string& kept = reason_[static_cast<std::size_t>(a)];
  if (kept.empty()) kept = reason_[static_cast<std::size_t>(b)].empty() ? std::move(reason) : reason_[static_cast<std::size_t>(b)];
}

std::vector<std::string_view> StateStorage::aliases_of(std::string_view fqn) const {
  std::vector<std::string_view> aliases;
  const int id = names_.find(fqn);
  if (id == NameTable::kAbsent || !aliased(fqn)) return aliases;
  const auto group = static_cast<std::size_t>(parent_[static_cast<std::size_t>(id)]);
  aliases.reserve(static_cast<std::size_t>(size_[group]) - 1);
  for (int at = group_start_[group]; at < group_start_[group + 1]; ++at) {
    const int other = group_members_[static_cast<std::size_t>(at)];
    if (other != id) aliases.push_back(fqns_[static_cast<std::size_t>(other)]);
  }
  return aliases;
}

bool StateStorage::aliased(std::string_view fqn) const {
  const int id = names_.find(fqn);
  if (id == NameTable::kAbsent) return false;
  return size_[static_cast<std::size_t>(parent_[static_cast<std::size_t>(id)])] > 1;
}

std::string_view StateStorage::canonical(std::string_view fqn) const {
  const int id = names_.find(fqn);
  return id == NameTable::kAbsent ? fqn : fqns_[static_cast<std::size_t>(parent_[static_cast<std::size_t>(id)])];
}

std::string StateStorage::why_shared(std::string_view fqn) const {
  const int id = names_.find(fqn);
  if (id == NameTable::kAbsent) return {};
  return reason_[static_cast<std::size_t>(parent_[static_cast<std::size_t>(id)])];
}

std::vector<std::vector<std::string_view>> StateStorage::alias_groups() const {
  std::vector<std::vector<std::string_view>> by_root(fqns_.size());
  for (int id = 0; id < static_cast<int>(fqns_.size()); ++id)
    by_root[static_cast<std::size_t>(parent_[static_cast<std::size_t>(id)])].push_back(
        fqns_[static_cast<std::size_t>(id)]);
  std::vector<std::vector<std::string_view>> groups;
  for (auto& names : by_root)
    if (names.size() > 1) groups.push_back(std::move(names));
  return groups;
}

std::string describe_aliases(const ProgramIndex& index, std::string_view fqn) {
  std::vector<std::string> names;
  for (std::string_view alias : index.storage().aliases_of(fqn)) {
    std::string words = fmt::format("`{}` (saved with the program; no input spec lifts it)", alias);
    for (StateKind kind : {StateKind::kParameter, StateKind::kBuffer, StateKind::kTensorConstant}) {
      if (!index.input_spec_by_target(kind, alias)) continue;
      words = fmt::format("{} `{}`", state_kind_words(kind), alias);
      break;
    }
    names.push_back(std::move(words));
  }
  std::string text;
  for (std::size_t i = 0; i < names.size(); ++i)
    text += (i == 0 ? "" : i + 1 == names.size() ? " and " : ", ") + names[i];
  return text;
}

}  // namespace pt2lint
