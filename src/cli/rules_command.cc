// `pt2lint rules` and `pt2lint explain RULE`.
#include <fmt/format.h>

#include <iostream>
#include <memory>

#include "cli/command_output.h"
#include "cli/rule_docs.h"
#include "cli/subcommand.h"
#include "cli/terminal.h"

namespace pt2lint {

namespace {

// "ID name (default severity: ...)", the summary and the rule's page.
void explain_rule(const RuleInfo& info, std::ostream& out) {
  out << info.id << ' ' << info.name << " (default severity: " << severity_name(info.default_severity)
      << (info.default_enabled ? "" : "; opt-in: runs only when selected") << ")\n"
      << info.summary << "\n\n";
  std::string_view page = rule_doc_page(info.name);
  if (!page.empty()) out << page << '\n';
}

// `explain PT3`: a family (an ID prefix) is listed, one line per rule, as `rules` lists it.
void list_rules(const std::vector<const RuleInfo*>& rules, const RuleRegistry& registry, std::ostream& out) {
  // The fourth column: `on` runs by default; `opt-in` only when --select, --extend-select or
  // the config names it (ID, prefix or name).
  for (const RuleInfo* info : rules) {
    out << fmt::format("{:<6} {:<38} {:<8} {:<6} {}\n", info->id, info->name,
                       severity_name(info->default_severity), info->default_enabled ? "on" : "opt-in",
                       info->summary);
    // A renamed rule's former names still select it for a release (README).
    for (std::string_view former : registry.aliases_of(*info))
      out << fmt::format("{:<6} {:<38} alias of {}\n", "", former, info->name);
  }
}

}  // namespace

Subcommand add_rules_command(CLI::App& app, const RuleRegistry& registry) {
  auto output = std::make_shared<std::string>();
  CLI::App* cmd = app.add_subcommand("rules", "list every rule");
  cmd->add_option("-o,--output", *output, "write the list to FILE");
  return {cmd, [&registry, output] {
            return write_command_output(
                *output, [&](std::ostream& out) { list_rules(registry.all(), registry, out); });
          }};
}

Subcommand add_explain_command(CLI::App& app, const RuleRegistry& registry) {
  struct ExplainOptions {
    std::string name, output;
  };
  auto options = std::make_shared<ExplainOptions>();
  CLI::App* cmd = app.add_subcommand("explain", "show a rule's documentation, or list a family (PT3)");
  cmd->add_option("rule", options->name, "rule ID, name or ID prefix")->required();
  cmd->add_option("-o,--output", options->output, "write the documentation to FILE");
  return {cmd, [&registry, options] {
            const std::string& name = options->name;
            const RuleInfo* info = registry.find(name);
            std::vector<const RuleInfo*> family;
            if (info == nullptr) family = registry.match(name);
            if (info == nullptr && family.empty()) {
              std::string hint = registry.suggest(name);
              print_error("unknown rule '" + name + "'" +
                          (hint.empty() ? "" : "; did you mean '" + hint + "'?"));
              return kExitUsage;
            }
            return write_command_output(options->output, [&](std::ostream& out) {
              if (info != nullptr) explain_rule(*info, out);
              else list_rules(family, registry, out);
            });
          }};
}

}  // namespace pt2lint
