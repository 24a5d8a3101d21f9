#include "cli/refuse_unusable.h"

#include <iostream>

#include <fmt/format.h>

#include "cli/subcommand.h"

namespace pt2lint {

int refuse_unusable(const std::string& path, const LoadedPrograms& loaded, std::string_view why_broken) {
  if (!loaded.readable) {
    std::cerr << fmt::format("pt2lint: error: cannot open '{}': {}\n", path, loaded.error);
    return kExitUsage;
  }
  if (loaded.has_errors() || loaded.programs.empty()) {
    print_load_findings(path, loaded);
    std::cerr << fmt::format("pt2lint: error: '{}' {}\n", path, why_broken);
    return kExitFindings;
  }
  return kExitClean;
}

}  // namespace pt2lint
