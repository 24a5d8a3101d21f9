// `pt2lint rules` and `pt2lint explain RULE`.
#include <fmt/format.h>

#include <iostream>
#include <memory>

#include "cli/rule_docs.h"
#include "cli/subcommand.h"
#include "cli/terminal.h"

namespace pt2lint {

Subcommand add_rules_command(CLI::App& app, const RuleRegistry& registry) {
  CLI::App* cmd = app.add_subcommand("rules", "list every rule");
  return {cmd, [&registry] {
            // The fourth column: `on` runs by default; `opt-in` only when --select,
            // --extend-select or the config names it (ID, prefix or name).
            for (const RuleInfo* info : registry.all()) {
              std::cout << fmt::format("{:<6} {:<38} {:<8} {:<6} {}\n", info->id, info->name,
                                       severity_name(info->default_severity),
                                       info->default_enabled ? "on" : "opt-in", info->summary);
              // A renamed rule's former names still select it for a release (README).
              for (std::string_view former : registry.aliases_of(*info))
                std::cout << fmt::format("{:<6} {:<38} alias of {}\n", "", former, info->name);
            }
            return kExitClean;
          }};
}

Subcommand add_explain_command(CLI::App& app, const RuleRegistry& registry) {
  auto name = std::make_shared<std::string>();
  CLI::App* cmd = app.add_subcommand("explain", "show a rule's documentation");
  cmd->add_option("rule", *name, "rule ID or name")->required();
  return {cmd, [&registry, name] {
            const RuleInfo* info = registry.find(*name);
            if (info == nullptr) {
              std::string hint = registry.suggest(*name);
              print_error("unknown rule '" + *name + "'" +
                          (hint.empty() ? "" : "; did you mean '" + hint + "'?"));
              return kExitUsage;
            }
            std::cout << info->id << ' ' << info->name << " (default severity: "
                      << severity_name(info->default_severity)
                      << (info->default_enabled ? "" : "; opt-in: runs only when selected") << ")\n"
                      << info->summary << "\n\n";
            std::string_view page = rule_doc_page(info->name);
            if (!page.empty()) std::cout << page << '\n';
            return kExitClean;
          }};
}

}  // namespace pt2lint
