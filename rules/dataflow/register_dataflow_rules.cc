#include "rules/dataflow/register_dataflow_rules.h"

#include "rules/dataflow/dataflow_rules.h"

namespace pt2lint {

void register_dataflow_rules(RuleRegistry& registry) {
  registry.add_rule(make_mutation_value_derives_from_target_rule());
  registry.add_rule(make_mutation_shape_matches_target_rule());
  registry.add_rule(make_buffer_write_has_write_back_rule());
  registry.add_rule(make_no_mutating_ops_in_functional_dialect_rule());
  registry.add_rule(make_constants_are_not_written_rule());
  registry.add_rule(make_state_is_used_rule());
  registry.add_rule(make_output_aliases_state_rule());
  registry.add_rule(make_unknown_op_may_write_state_rule());
  registry.add_rule(make_subgraph_writes_decidable_rule());

  registry.add_rule(make_aliased_state_written_rule());
  registry.add_rule(make_constant_is_read_rule());
}

}  // namespace pt2lint
