#include "engine/config/config_filter.h"

namespace pt2lint {
namespace {

// Resolves one selector (ID, ID prefix or name) to its rules.
Expected<std::vector<const RuleInfo*>> resolve(const RuleRegistry& registry, const std::string& selector) {
  std::vector<const RuleInfo*> rules = registry.match(selector);
  if (!rules.empty()) return rules;
  std::string hint = registry.suggest(selector);
  return Status::error("unknown rule '" + selector + "'" + (hint.empty() ? "" : "; did you mean '" + hint + "'?"));
}

}  // namespace

Expected<RuleFilter> build_rule_filter(const Config& config, const CommandLineSelection& cli,
                                       const RuleRegistry& registry) {
  RuleFilter filter;
  for (const RuleInfo* info : registry.all())
    if (!info->default_enabled) filter.mark_opt_in(*info);
  const std::vector<std::string>* select = nullptr;
  if (!cli.select.empty()) select = &cli.select;
  else if (config.select) select = &*config.select;
  if (select != nullptr) {
    for (const std::string& selector : *select) {
      auto rules = resolve(registry, selector);
      if (!rules.ok()) return rules.status();
      for (const RuleInfo* info : rules.value()) filter.select(*info);
    }
    // `select = []` in a config means "no rule", not "every rule".
    if (select->empty()) filter.select_none();
  }
  for (const auto* extends : {&config.extend_select, &cli.extend_select}) {
    for (const std::string& selector : *extends) {
      auto rules = resolve(registry, selector);
      if (!rules.ok()) return rules.status();
      for (const RuleInfo* info : rules.value()) filter.extend_select(*info);
    }
  }
  for (const auto* ignores : {&config.ignore, &cli.ignore}) {
    for (const std::string& selector : *ignores) {
      auto rules = resolve(registry, selector);
      if (!rules.ok()) return rules.status();
      for (const RuleInfo* info : rules.value()) filter.ignore(*info);
    }
  }
  for (const auto& [selector, severity] : config.severity) {
    auto rules = resolve(registry, selector);
    if (!rules.ok()) return rules.status();
    for (const RuleInfo* info : rules.value()) filter.override_severity(*info, severity);
  }
  for (const PerFileIgnore& entry : config.per_file_ignores) {
    for (const std::string& selector : entry.rules) {
      auto rules = resolve(registry, selector);
      if (!rules.ok()) return rules.status();
      for (const RuleInfo* info : rules.value()) filter.ignore_in_files(config.base_dir, entry.pattern, *info);
    }
  }
  return filter;
}

}  // namespace pt2lint
