#include "engine/config/config_filter.h"

namespace pt2lint {
namespace {

// Resolves one selector (ID, ID prefix or name) to its rules.
bool resolve(const RuleRegistry& registry, const std::string& selector,
             std::vector<const RuleInfo*>& rules, std::string& error) {
  rules = registry.match(selector);
  if (!rules.empty()) return true;
  std::string hint = registry.suggest(selector);
  error = "unknown rule '" + selector + "'" + (hint.empty() ? "" : "; did you mean '" + hint + "'?");
  return false;
}

}  // namespace

bool build_rule_filter(const Config& config, const CommandLineSelection& cli,
                       const RuleRegistry& registry, RuleFilter& filter, std::string& error) {
  std::vector<const RuleInfo*> rules;
  for (const RuleInfo* info : registry.all())
    if (!info->default_enabled) filter.mark_opt_in(*info);
  const std::vector<std::string>* select = nullptr;
  if (!cli.select.empty()) select = &cli.select;
  else if (config.select) select = &*config.select;
  if (select != nullptr) {
    for (const std::string& selector : *select) {
      if (!resolve(registry, selector, rules, error)) return false;
      for (const RuleInfo* info : rules) filter.select(*info);
    }
    // `select = []` in a config means "no rule", not "every rule".
    if (select->empty()) filter.select_none();
  }
  for (const auto* extends : {&config.extend_select, &cli.extend_select}) {
    for (const std::string& selector : *extends) {
      if (!resolve(registry, selector, rules, error)) return false;
      for (const RuleInfo* info : rules) filter.extend_select(*info);
    }
  }
  for (const auto* ignores : {&config.ignore, &cli.ignore}) {
    for (const std::string& selector : *ignores) {
      if (!resolve(registry, selector, rules, error)) return false;
      for (const RuleInfo* info : rules) filter.ignore(*info);
    }
  }
  for (const auto& [selector, severity] : config.severity) {
    if (!resolve(registry, selector, rules, error)) return false;
    for (const RuleInfo* info : rules) filter.override_severity(*info, severity);
  }
  for (const PerFileIgnore& entry : config.per_file_ignores) {
    for (const std::string& selector : entry.rules) {
      if (!resolve(registry, selector, rules, error)) return false;
      for (const RuleInfo* info : rules) filter.ignore_in_files(config.base_dir, entry.pattern, *info);
    }
  }
  return true;
}

}  // namespace pt2lint
