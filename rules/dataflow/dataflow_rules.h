// The dataflow and aliasing rules (phase kDataflow, IDs PT3xx). Each runs only on a program
// whose structure is sound; see docs/dataflow.md for the analysis they share.
#pragma once

#include <memory>

#include "verifier/rule.h"

namespace pt2lint {

std::unique_ptr<Rule> make_mutation_value_derives_from_target_rule();  // PT301
std::unique_ptr<Rule> make_mutation_shape_matches_target_rule();       // PT302
std::unique_ptr<Rule> make_buffer_write_has_write_back_rule();         // PT303
std::unique_ptr<Rule> make_no_mutating_ops_in_functional_dialect_rule();  // PT304
std::unique_ptr<Rule> make_constants_are_not_written_rule();           // PT305
std::unique_ptr<Rule> make_state_is_used_rule();                       // PT306
std::unique_ptr<Rule> make_output_aliases_state_rule();                // PT307
std::unique_ptr<Rule> make_unknown_op_may_write_state_rule();          // PT310
std::unique_ptr<Rule> make_subgraph_writes_decidable_rule();           // PT311

std::unique_ptr<Rule> make_aliased_state_written_rule();               // PT308
std::unique_ptr<Rule> make_constant_is_read_rule();                    // PT309

}  // namespace pt2lint
