#include "rules/structural/register_structural_rules.h"

#include <memory>

#include "rules/structural/input_specs_match_placeholders.h"
#include "rules/structural/mutation_target_resolves.h"
#include "rules/structural/mutations_before_user_outputs.h"
#include "rules/structural/nativert_input_order.h"
#include "rules/structural/one_mutation_per_buffer.h"
#include "rules/structural/output_arity_matches_call_spec.h"
#include "rules/structural/output_specs_match_graph_outputs.h"
#include "rules/structural/state_dict_mismatch.h"
#include "rules/structural/value_defined_before_use.h"
#include "rules/structural/value_has_metadata.h"
#include "rules/structural/value_names_unique.h"

namespace pt2lint {

// Signature shape first, then what the signature points at, then SSA sanity: the order
// findings appear in within a program.
void register_structural_rules(RuleRegistry& registry) {
  registry.add_rule(std::make_unique<InputSpecsMatchPlaceholders>());
  registry.add_rule(std::make_unique<OutputSpecsMatchGraphOutputs>());
  registry.add_rule(std::make_unique<MutationsBeforeUserOutputs>());
  registry.add_rule(std::make_unique<MutationTargetResolves>());
  registry.add_rule(std::make_unique<OneMutationPerBuffer>());
  registry.add_rule(std::make_unique<StateDictMismatch>());
  registry.add_rule(std::make_unique<ValueDefinedBeforeUse>());
  registry.add_rule(std::make_unique<ValueNamesUnique>());
  registry.add_rule(std::make_unique<ValueHasMetadata>());
  registry.add_rule(std::make_unique<OutputArityMatchesCallSpec>());
  registry.add_rule(std::make_unique<NativertInputOrder>());
}

}  // namespace pt2lint
