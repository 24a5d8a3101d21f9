// A node's metadata (stack_trace, nn_module_stack, torch_fn, from_node, ...) in either of the
// IR's two forms: `Node.metadata`, key/value messages, as every loader but `check`'s writes it
// and every pass that changes or writes a program reads it; or interned, as `check` loads a
// program it only reads (program.proto, Node.interned_metadata): each distinct string once in
// the program, so 90k nodes that share 20 stack traces do not hold 90k copies of them.
#pragma once

#include <string_view>

#include "program.pb.h"

namespace pt2lint::ir {

// The value of `key` in `node`'s metadata; "" when absent. `program` is the program the node
// belongs to (its interned strings); an interned pair naming no string (a hand-written
// textproto) is skipped.
std::string_view node_metadata_value(const Program& program, const Node& node, std::string_view key);

}  // namespace pt2lint::ir
