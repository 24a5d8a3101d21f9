// pt2lint command line. Each subcommand is defined in its own file (see subcommand.h).
#include <algorithm>
#include <csignal>
#include <cstdlib>
#include <filesystem>
#include <iostream>
#include <string>
#include <vector>

#include "cli/huge_page_heap.h"
#include "cli/subcommand.h"
#include "cli/terminal.h"
#include "core/rule_registry.h"
#include "reports/escape/text_escape.h"
#include "rules/register_all_rules.h"
#include "support/edit_distance.h"

namespace pt2lint {
namespace {

// A repeatable option takes one value per occurrence: `lower --op-schemas F IN -o OUT` reads
// F as the schemas and IN as the input, never both as schema files.
void one_value_per_occurrence(CLI::App& command) {
  for (CLI::Option* option : command.get_options()) {
    if (option->nonpositional() && option->get_allow_extra_args()) option->allow_extra_args(false);
  }
}

// "did you mean 'check'?" for a misspelt subcommand, "did you mean '--select'?" for a
// misspelt long option of the chosen one; "" when nothing is close.
std::string did_you_mean(CLI::App& app, int argc, char** argv) {
  if (argc < 2) return {};
  const std::string first = argv[1];
  std::vector<std::string> names;
  std::vector<std::string_view> views;
  auto suggest = [&](const std::string& word) {
    views.assign(names.begin(), names.end());
    std::string hint = closest_match(word, views);
    return hint.empty() ? std::string() : "did you mean '" + hint + "'?";
  };
  CLI::App* chosen = nullptr;
  for (CLI::App* sub : app.get_subcommands([](CLI::App*) { return true; })) {
    names.push_back(sub->get_name());
    if (sub->get_name() == first) chosen = sub;
  }
  if (chosen == nullptr) return first.starts_with("-") ? std::string() : suggest(first);
  names.clear();
  for (const CLI::Option* option : chosen->get_options())
    for (const std::string& name : option->get_lnames()) names.push_back("--" + name);
  for (int i = 2; i < argc; ++i) {
    std::string word = argv[i];
    if (!word.starts_with("--") || word == "--") continue;
    word = word.substr(0, word.find('='));
    if (std::find(names.begin(), names.end(), word) == names.end()) return suggest(word);
  }
  return {};
}

// CLI11 answers a first word that names no subcommand with "A subcommand is required", which
// reads as if none was given: say which word is unknown, and what was probably meant (a close
// subcommand, or `check` when the word is a file). "" when the first word is an option or a
// subcommand.
std::string unknown_subcommand(CLI::App& app, int argc, char** argv) {
  if (argc < 2 || std::string_view(argv[1]).starts_with("-")) return {};
  const std::string first = argv[1];
  for (CLI::App* sub : app.get_subcommands([](CLI::App*) { return true; }))
    if (sub->get_name() == first) return {};
  std::string message = "unknown subcommand '" + first + "'";
  std::error_code ec;
  if (std::string hint = did_you_mean(app, argc, argv); !hint.empty()) {
    message += "; " + hint;
  } else if (std::filesystem::exists(first, ec)) {
    message += "; to check it: pt2lint check " + first;
  }
  return message + " (pt2lint --help lists the subcommands)";
}

}  // namespace
}  // namespace pt2lint

int main(int argc, char** argv) {
  using namespace pt2lint;
  // Past `ulimit -f` a write fails with EFBIG instead of killing the process, so a writer
  // reports it and removes its temporary file (support/atomic_file.h).
  std::signal(SIGXFSZ, SIG_IGN);
  use_huge_pages_for_heap();
  RuleRegistry registry;
  register_all_rules(registry);

  CLI::App app{"pt2lint: a static verifier and linter for torch.export programs (.pt2)"};
  app.set_version_flag("--version", std::string("pt2lint ") + PT2LINT_VERSION);
  app.require_subcommand(1);

  std::vector<Subcommand> subcommands = {
      add_check_command(app, registry),
      add_rules_command(app, registry),
      add_explain_command(app, registry),
      add_lower_command(app),
      add_contract_command(app),
      add_diff_command(app, registry),
      add_schemas_command(app),
      add_fix_command(app, registry),
      add_graph_command(app, registry),
      add_reduce_command(app, registry),
      add_config_command(app, registry),
  };
  for (const Subcommand& subcommand : subcommands) one_value_per_occurrence(*subcommand.command);

  try {
    app.parse(argc, argv);
  } catch (const CLI::ParseError& error) {
    if (std::string unknown = unknown_subcommand(app, argc, argv); !unknown.empty()) {
      print_error(unknown);
      return kExitUsage;
    }
    // A usage error's message quotes the arguments (a path, an unknown option): CLI11 would
    // print it raw, so it is written inert here; help and version go through CLI11.
    const int status = error.get_exit_code();
    if (status == 0) {
      (void)app.exit(error);
    } else {
      std::cerr << inert_text(error.what()) << "\nRun with --help for more information.\n";
      if (std::string hint = did_you_mean(app, argc, argv); !hint.empty())
        std::cerr << "pt2lint: " << hint << '\n';
    }
    return status == 0 ? kExitClean : kExitUsage;
  }
  for (const Subcommand& subcommand : subcommands) {
    if (subcommand.command->parsed()) return subcommand.run();
  }
  return kExitUsage;
}
