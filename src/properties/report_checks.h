// Renders a file's findings in every report format and checks what each format's consumers
// rely on: JSON, SARIF, rdjson and GitLab output parse as JSON; the JSON report's counts and
// the SARIF results match the findings; SARIF results point at rules that exist.
#pragma once

#include <string>
#include <vector>

#include "core/rule_registry.h"
#include "engine/engine.h"

namespace pt2lint::properties {

// One line per problem; empty when every format is fine.
std::vector<std::string> check_every_report(const FileResult& file, const RuleRegistry& registry);

}  // namespace pt2lint::properties
