// The one place that lists every built-in rule, in the order they run within a phase.
#include "frontends/load_rules.h"
#include "rules/dataflow/register_dataflow_rules.h"
#include "rules/structural/register_structural_rules.h"
#include "verifier/contract/contract_rules.h"
#include "verifier/rule_registry.h"

namespace pt2lint {

void register_all_rules(RuleRegistry& registry) {
  registry.add_reported_elsewhere(kMalformedProgram);
  registry.add_reported_elsewhere(kUnsafeArchiveMember);
  registry.add_reported_elsewhere(kUnsupportedSchemaVersion);
  registry.add_reported_elsewhere(kAotinductorPackage);
  registry.add_reported_elsewhere(kSuspiciousArchiveLayout);
  register_structural_rules(registry);
  register_dataflow_rules(registry);
  // Findings of `pt2lint diff`: registered so `rules`, `explain` and the SARIF rule table know them.
  register_contract_rules(registry);
}

}  // namespace pt2lint
