// Each pt2lint subcommand lives in its own file and registers itself with the app here.
#pragma once

#include <CLI/CLI.hpp>

#include <functional>

#include "core/rule_registry.h"

namespace pt2lint {

inline constexpr int kExitClean = 0;
inline constexpr int kExitFindings = 1;
inline constexpr int kExitUsage = 2;
// `diff`: no broken promise, but some state's writes cannot be decided (PT414).
inline constexpr int kExitUndecidable = 3;

// A subcommand adds its options to `app` and returns the action to run when it is chosen.
using SubcommandAction = std::function<int()>;

struct Subcommand {
  CLI::App* command;
  SubcommandAction run;
};

// The positional argument of the commands that read one program file.
inline CLI::Option* add_program_file(CLI::App& command, const std::string& name, std::string& path) {
  return command.add_option(name, path, "a .pt2, program .json or .textproto file")->required();
}

Subcommand add_check_command(CLI::App& app, const RuleRegistry& registry);
Subcommand add_rules_command(CLI::App& app, const RuleRegistry& registry);
Subcommand add_explain_command(CLI::App& app, const RuleRegistry& registry);
Subcommand add_lower_command(CLI::App& app);
Subcommand add_contract_command(CLI::App& app);
Subcommand add_diff_command(CLI::App& app, const RuleRegistry& registry);
Subcommand add_schemas_command(CLI::App& app);
Subcommand add_fix_command(CLI::App& app, const RuleRegistry& registry);
Subcommand add_graph_command(CLI::App& app, const RuleRegistry& registry);
Subcommand add_reduce_command(CLI::App& app, const RuleRegistry& registry);
Subcommand add_config_command(CLI::App& app, const RuleRegistry& registry);

}  // namespace pt2lint
