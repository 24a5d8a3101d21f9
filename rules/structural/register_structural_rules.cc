#include "rules/structural/register_structural_rules.h"

namespace pt2lint {

void register_structural_rules(RuleRegistry& registry) {
}

}  // namespace pt2lint
