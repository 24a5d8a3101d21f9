#pragma once

#include "verifier/rule_registry.h"

namespace pt2lint {

void register_structural_rules(RuleRegistry& registry);

}  // namespace pt2lint
