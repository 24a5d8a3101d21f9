// pt2lint command line. Each subcommand is defined in its own file (see subcommand.h).
#include <csignal>
#include <cstdlib>
#include <string>
#include <vector>

#include "cli/huge_page_heap.h"
#include "cli/subcommand.h"
#include "core/rule_registry.h"

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
  };

  try {
    app.parse(argc, argv);
  } catch (const CLI::ParseError& error) {
    return app.exit(error) == 0 ? kExitClean : kExitUsage;
  }
  for (const Subcommand& subcommand : subcommands) {
    if (subcommand.command->parsed()) return subcommand.run();
  }
  return kExitUsage;
}
