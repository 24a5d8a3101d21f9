// What the loaders need to report their findings: the load rules (PT1xx, in the catalogue)
// and the archive version they read.
#pragma once

#include "core/rule_catalogue.h"
#include "io/readers/schema_versions.h"

namespace pt2lint {

// The archive version this build understands (schema majors: schema_versions.h).
inline constexpr const char* kSupportedArchiveVersion = "0";

}  // namespace pt2lint
