// Small read-only views over the graph signature that several structural rules share:
// the state a program declares, the user inputs, and plain-words descriptions of specs.
#pragma once

#include <string>
#include <string_view>
#include <vector>

#include "core/ir/state_kind.h"
#include "program.pb.h"

namespace pt2lint {

// One parameter, buffer, tensor constant or custom object lifted into a placeholder.
struct DeclaredState {
  int spec_index = -1;
  StateKind kind = StateKind::kNone;  // parameter, buffer, tensor constant, custom object
  std::string_view fqn;          // the spec's target
  std::string_view placeholder;  // the spec's arg name
  bool persistent = true;        // buffers only; unset counts as persistent
  bool persistence_known = false;
};

// Every state input spec in order; `kind` kNone means all kinds.
std::vector<DeclaredState> declared_state(const ir::GraphSignature& signature,
                                          StateKind kind = StateKind::kNone);

// Placeholder names of the user_input specs, in order (constants have none and are skipped).
std::vector<std::string_view> user_input_names(const ir::GraphSignature& signature);

// "1 leaf", "2 leaves": `singular` and `plural` chosen by count.
std::string count_of(std::size_t count, std::string_view singular, std::string_view plural);

// "`name`": how findings quote names.
std::string quoted(std::string_view name);
// "`a`, `b`, `c` and 4 more": bounded so a huge program does not produce a huge message.
std::string join_quoted(const std::vector<std::string_view>& names, std::size_t max_shown = 8);

// "buffer_mutation of `count` (value `add`)", "user_output `mul`", "token `token_1`".
std::string describe_output_spec(const ir::OutputSpec& spec);
// "buffer_mutation of `count`", "user_output": the spec's role without its value.
std::string describe_output_role(const ir::OutputSpec& spec);
// "buffer `count`", "user_input": the spec's role without its placeholder.
std::string describe_input_role(const ir::InputSpec& spec);

// The input kind torch.export's placeholder naming pass gives this name's prefix
// ("p_" parameter, "b_" buffer, "c_" tensor_constant, "obj_" custom_obj, "token" token),
// or kNone when the name carries no such prefix.
StateKind kind_from_placeholder_prefix(std::string_view placeholder);

}  // namespace pt2lint
