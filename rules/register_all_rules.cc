// The one place that lists every built-in rule, in the order they run within a phase.
#include "frontends/load_rules.h"
#include "rules/dataflow/register_dataflow_rules.h"
#include "rules/structural/register_structural_rules.h"
#include "verifier/rule_registry.h"

namespace pt2lint {

void register_all_rules(RuleRegistry& registry) {
  registry.add_load_rule(kMalformedProgram);
  registry.add_load_rule(kUnsafeArchiveMember);
  registry.add_load_rule(kUnsupportedSchemaVersion);
  register_structural_rules(registry);
  register_dataflow_rules(registry);
}

}  // namespace pt2lint
