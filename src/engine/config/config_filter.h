// Turns a Config and the command line's --select/--ignore into the RuleFilter a run uses.
#pragma once

#include <string>
#include <vector>

#include "core/rule_filter.h"
#include "core/rule_registry.h"
#include "engine/config/config.h"
#include "support/status.h"

namespace pt2lint {

struct CommandLineSelection {
  std::vector<std::string> select;  // replaces the config's `select` when not empty
  std::vector<std::string> ignore;  // adds to the config's `ignore`
  std::vector<std::string> extend_select;  // adds to the config's `extend-select`
};

// Precedence, lowest first: the config's select/ignore/severity/per-file-ignores, then the
// command line. Every selector must name a rule; otherwise it fails with a "did you mean".
// (Config files are validated when parsed; this catches the command line.)
Expected<RuleFilter> build_rule_filter(const Config& config, const CommandLineSelection& cli,
                                       const RuleRegistry& registry);

}  // namespace pt2lint
