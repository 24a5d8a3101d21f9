// `pt2lint config FILE`: the settings that apply to FILE, where each comes from, and the rules
// that run on it with their severities, as `check` would resolve them.
#include <fmt/format.h>

#include <iostream>
#include <memory>

#include "cli/command_output.h"
#include "cli/subcommand.h"
#include "cli/terminal.h"
#include "engine/config/config_discovery.h"
#include "engine/rule_selection.h"
#include "engine/walk_filter.h"

namespace pt2lint {
namespace {

struct ConfigOptions {
  std::string path;
  std::string output;
  RuleSources rules;
};

std::string joined(const std::vector<std::string>& items) {
  std::string text;
  for (const std::string& item : items) text += (text.empty() ? "" : ", ") + item;
  return text.empty() ? "(none)" : text;
}

int run_config(const RuleRegistry& registry, const ConfigOptions& options) {
  std::optional<std::filesystem::path> file;
  if (!options.rules.no_config)
    file = options.rules.config.empty() ? find_config(options.path) : std::filesystem::path(options.rules.config);
  Config config;
  RuleFilter filter;
  if (Status selected = filter_from_config(file.value_or(std::filesystem::path()), options.rules.command_line,
                                          registry, config, filter);
      !selected.ok()) {
    print_error(selected.message());
    return kExitUsage;
  }
  const RuleFilter for_file = filter.for_file(options.path);
  CommandOutput out(options.output);
  if (!out.ok()) return kExitUsage;
  std::ostream& o = out.stream();
  o << "file: " << options.path << '\n';
  o << "config: " << (file ? file->string() : options.rules.no_config ? "(none: --no-config)" : "(none found)")
    << '\n';
  o << "select: " << (config.select ? joined(*config.select) : "(default: every default-on rule)") << '\n';
  o << "extend-select: " << joined(config.extend_select) << '\n';
  o << "ignore: " << joined(config.ignore) << '\n';
  std::vector<std::string> per_file;
  for (const PerFileIgnore& entry : config.per_file_ignores) per_file.push_back(entry.pattern + " = " + joined(entry.rules));
  o << "per-file-ignores: " << joined(per_file) << '\n';
  std::vector<std::string> schemas;
  for (const std::filesystem::path& path : config.op_schemas) schemas.push_back(path.string());
  for (const std::string& path : options.rules.op_schemas) schemas.push_back(path + " (--op-schemas)");
  o << "op-schemas: " << joined(schemas) << '\n';
  o << "exclude: " << joined(exclusion_patterns(config.exclude ? &*config.exclude : nullptr, config.extend_exclude))
    << '\n';
  o << "respect-gitignore: " << (config.respect_gitignore ? "true" : "false") << '\n';
  o << "baseline: " << (config.baseline.empty() ? "(none)" : config.baseline.string()) << '\n';
  o << "docs-url: " << (config.docs_url.empty() ? "(none)" : config.docs_url) << '\n';
  o << "rules that run on this file:\n";
  for (const RuleInfo* info : registry.all()) {
    if (!for_file.enabled(info->id)) continue;
    o << fmt::format("  {:<6} {:<38} {}\n", info->id, info->name,
                     severity_name(for_file.severity(info->id, info->default_severity)));
  }
  return out.written() ? kExitClean : kExitUsage;
}

}  // namespace

Subcommand add_config_command(CLI::App& app, const RuleRegistry& registry) {
  auto options = std::make_shared<ConfigOptions>();
  CLI::App* cmd = app.add_subcommand("config", "show the settings and rules that apply to a file");
  cmd->add_option("path", options->path, "the file (or folder) whose settings to show")->required();
  auto* config = cmd->add_option("--config", options->rules.config, "use this config file instead of searching");
  cmd->add_flag("--no-config", options->rules.no_config, "ignore pyproject.toml and .pt2lint.toml")->excludes(config);
  cmd->add_option("--select", options->rules.command_line.select, "as `check --select`")->delimiter(',');
  cmd->add_option("--extend-select", options->rules.command_line.extend_select, "as `check --extend-select`")
      ->delimiter(',');
  cmd->add_option("--ignore", options->rules.command_line.ignore, "as `check --ignore`")->delimiter(',');
  cmd->add_option("-o,--output", options->output, "write the settings to FILE");
  return {cmd, [&registry, options] { return run_config(registry, *options); }};
}

}  // namespace pt2lint
