// The tensor values an Argument names, read and rewritten in place: what the functionalizer
// needs to redirect every later read of a written tensor to its new value.
#pragma once

#include <functional>
#include <string>
#include <string_view>

#include "program.pb.h"

namespace pt2lint::lowering {

// Calls `rename(old_name)` for every tensor the argument names (as_tensor, as_tensors,
// as_optional_tensor(s), as_nested_tensors) and stores what it returns.
void rewrite_tensor_names(ir::Argument& argument,
                          const std::function<std::string(const std::string&)>& rename);

// The NamedArgument called `name` in `node`, or nullptr.
const ir::NamedArgument* find_input(const ir::Node& node, std::string_view name);

// The single tensor value an input binds (as_tensor or a present as_optional_tensor), or "".
std::string_view single_tensor(const ir::Argument& argument);

// Whether `argument` is a list of tensors (as_tensors, as_optional_tensors, nested).
bool is_tensor_list(const ir::Argument& argument);

// Every tensor value name a node defines, in output order.
void for_each_output_tensor(const ir::Node& node,
                            const std::function<void(const std::string&)>& visit);

}  // namespace pt2lint::lowering
