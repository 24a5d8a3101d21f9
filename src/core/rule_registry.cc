#include "core/rule_registry.h"

#include <stdexcept>
#include <string>

#include "support/edit_distance.h"

namespace pt2lint {

// Two rules answering to one ID or name would make every selection, suppression and
// baseline ambiguous: a programming error, caught when the registry is built.
void RuleRegistry::claim(std::string_view id_or_name) const {
  if (find(id_or_name) != nullptr)
    throw std::logic_error("rule ID or name registered twice: " + std::string(id_or_name));
}

void RuleRegistry::add_reported_elsewhere(const RuleInfo& info) {
  claim(info.id);
  claim(info.name);
  infos_.push_back(&info);
}

void RuleRegistry::add_rule(std::unique_ptr<Rule> rule) {
  add_reported_elsewhere(rule->info());
  rules_.push_back(std::move(rule));
}

void RuleRegistry::add_alias(std::string_view former_name, const RuleInfo& info) {
  claim(former_name);
  aliases_.push_back({former_name, &info});
}

std::vector<std::string_view> RuleRegistry::aliases_of(const RuleInfo& info) const {
  std::vector<std::string_view> names;
  for (const Alias& alias : aliases_)
    if (alias.info == &info) names.push_back(alias.former_name);
  return names;
}

const RuleInfo* RuleRegistry::find(std::string_view id_or_name) const {
  for (const RuleInfo* info : infos_) {
    if (info->id == id_or_name || info->name == id_or_name) return info;
  }
  for (const Alias& alias : aliases_)
    if (alias.former_name == id_or_name) return alias.info;
  return nullptr;
}

std::vector<const RuleInfo*> RuleRegistry::match(std::string_view selector) const {
  std::vector<const RuleInfo*> matched;
  if (selector.empty()) return matched;
  for (const RuleInfo* info : infos_) {
    bool id_prefix = info->id.substr(0, selector.size()) == selector;
    if (id_prefix || info->name == selector) matched.push_back(info);
  }
  for (const Alias& alias : aliases_)
    if (alias.former_name == selector) matched.push_back(alias.info);
  return matched;
}

std::string RuleRegistry::suggest(std::string_view unknown) const {
  std::vector<std::string_view> names;
  for (const RuleInfo* info : infos_) {
    names.push_back(info->name);
    names.push_back(info->id);
  }
  return closest_match(unknown, names);
}

}  // namespace pt2lint
