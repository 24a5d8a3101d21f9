// The catalogue of rules. Built explicitly by register_all_rules(); no static initialisers.
#pragma once

#include <memory>
#include <string>
#include <string_view>
#include <vector>

#include "core/rule.h"
#include "core/rule_info.h"

namespace pt2lint {

class RuleRegistry {
 public:
  // Rules whose findings come from outside the engine (the loaders, `pt2lint diff`):
  // metadata only, so `rules`, `explain` and the report formats know them.
  void add_reported_elsewhere(const RuleInfo& info);
  void add_rule(std::unique_ptr<Rule> rule);

  // Every rule's metadata, load rules first, then in registration order.
  const std::vector<const RuleInfo*>& all() const { return infos_; }
  const std::vector<std::unique_ptr<Rule>>& rules() const { return rules_; }

  // By ID or name, exact.
  const RuleInfo* find(std::string_view id_or_name) const;
  // Rules an ID, ID prefix or name selects (for --select / --ignore). Empty if none.
  std::vector<const RuleInfo*> match(std::string_view selector) const;
  // The closest ID or name to a misspelt one, or "" when nothing is close.
  std::string suggest(std::string_view unknown) const;

 private:
  std::vector<const RuleInfo*> infos_;
  std::vector<std::unique_ptr<Rule>> rules_;
};

// Registers every built-in rule: defined in rules/register_all_rules.cc.
void register_all_rules(RuleRegistry& registry);

}  // namespace pt2lint
