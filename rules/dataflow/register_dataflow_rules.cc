#include "rules/dataflow/register_dataflow_rules.h"

namespace pt2lint {

void register_dataflow_rules(RuleRegistry& registry) {
}

}  // namespace pt2lint
