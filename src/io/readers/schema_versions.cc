#include "io/readers/schema_versions.h"

#include <fmt/format.h>

namespace pt2lint {

std::string supported_schema_text() {
  return fmt::format("schema major {} (8.0 to 8.{}, written by PyTorch 2.6 to 2.12)",
                     kSupportedSchemaMajor, kNewestKnownSchemaMinor);
}

std::string releases_writing(long long major, bool integer_form) {
  // An integer schema_version (1, then 2) predates SchemaVersion{major, minor}; files of that
  // time also carry a top-level "dialect" and write unions with every member present.
  if (integer_form) return "the first torch.export releases, PyTorch 2.1 to 2.3";
  if (major >= 3 && major <= 7) return "PyTorch 2.3 to 2.5 (schema majors 3 to 7)";
  if (major == kSupportedSchemaMajor) return "PyTorch 2.6 to 2.12";
  if (major > kSupportedSchemaMajor) {
    return "no released PyTorch: a newer major than any release writes (upstream PyTorch has a "
           "prototype major 9)";
  }
  return "no released PyTorch";
}

}  // namespace pt2lint
