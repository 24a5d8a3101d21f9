// register_all_rules(): every built-in rule into a registry. Declared in rules/, beside the
// rules it makes, not in core/: its callers then include a rules/ header, so the include
// check (scripts/check_layers.py) sees the dependency that linking them already has.
#pragma once

#include "core/rule_registry.h"

namespace pt2lint {

// Every rule the engine runs, in catalogue order (core/rule_catalogue.def), the metadata of
// those reported elsewhere, and the former names of renamed rules.
void register_all_rules(RuleRegistry& registry);

}  // namespace pt2lint
