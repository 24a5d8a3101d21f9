#include "cli/refuse_unusable.h"

#include <fmt/format.h>

#include "cli/subcommand.h"
#include "cli/terminal.h"

namespace pt2lint {

int refuse_unreadable(const std::string& path, const LoadedPrograms& loaded) {
  if (loaded.readable) return kExitClean;
  // The loader's error already names the file ("cannot open 'PATH': why").
  print_error(loaded.error.empty() ? fmt::format("cannot open '{}'", path) : loaded.error);
  return kExitUsage;
}

int refuse_unusable(const std::string& path, const LoadedPrograms& loaded, std::string_view why_broken) {
  if (int refused = refuse_unreadable(path, loaded); refused != kExitClean) return refused;
  if (loaded.has_errors() || loaded.programs.empty()) {
    print_load_findings(path, loaded);
    print_error(fmt::format("'{}' {}", path, why_broken));
    return kExitFindings;
  }
  return kExitClean;
}

}  // namespace pt2lint
