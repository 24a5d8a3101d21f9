// TEMPORARY until the frontends land (helper-1 replaces this file).
#include "frontends/load_file.h"
namespace pt2lint {
LoadOutcome load_file(const std::filesystem::path& path, const LoadOptions& options,
                      LoadedFile& out, DiagnosticSink& sink) {
  out.error = "frontends not built yet";
  return LoadOutcome::kUnreadable;
}
}  // namespace pt2lint
