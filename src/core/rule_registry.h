// The rules of a run, built explicitly by register_all_rules() (rules/register_all_rules.h)
// from the catalogue (core/rule_catalogue.def); no static initialisers.
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
  // Both throw std::logic_error on an ID or name already registered (or used as an alias).
  void add_reported_elsewhere(const RuleInfo& info);
  void add_rule(std::unique_ptr<Rule> rule);
  // A former name of `info` (README, "Stability"): selections, suppressions and `explain`
  // accept it for a release after a rename. Throws like the above.
  void add_alias(std::string_view former_name, const RuleInfo& info);

  // Every rule's metadata, load rules first, then in registration order.
  const std::vector<const RuleInfo*>& all() const { return infos_; }
  const std::vector<std::unique_ptr<Rule>>& rules() const { return rules_; }

  // The former names `info` is still known by.
  std::vector<std::string_view> aliases_of(const RuleInfo& info) const;

  // By ID, name or former name, exact.
  const RuleInfo* find(std::string_view id_or_name) const;
  // Rules an ID, ID prefix, name or former name selects (for --select / --ignore). Empty if
  // none.
  std::vector<const RuleInfo*> match(std::string_view selector) const;
  // The closest ID or name to a misspelt one, or "" when nothing is close.
  std::string suggest(std::string_view unknown) const;

 private:
  struct Alias {
    std::string_view former_name;
    const RuleInfo* info;
  };
  void claim(std::string_view id_or_name) const;

  std::vector<const RuleInfo*> infos_;
  std::vector<std::unique_ptr<Rule>> rules_;
  std::vector<Alias> aliases_;
};

}  // namespace pt2lint
