#include "core/rule_registry.h"

#include "support/edit_distance.h"

namespace pt2lint {

void RuleRegistry::add_reported_elsewhere(const RuleInfo& info) { infos_.push_back(&info); }

void RuleRegistry::add_rule(std::unique_ptr<Rule> rule) {
  infos_.push_back(&rule->info());
  rules_.push_back(std::move(rule));
}

const RuleInfo* RuleRegistry::find(std::string_view id_or_name) const {
  for (const RuleInfo* info : infos_) {
    if (info->id == id_or_name || info->name == id_or_name) return info;
  }
  return nullptr;
}

std::vector<const RuleInfo*> RuleRegistry::match(std::string_view selector) const {
  std::vector<const RuleInfo*> matched;
  if (selector.empty()) return matched;
  for (const RuleInfo* info : infos_) {
    bool id_prefix = info->id.substr(0, selector.size()) == selector;
    if (id_prefix || info->name == selector) matched.push_back(info);
  }
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
