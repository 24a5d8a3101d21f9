// Free accessors over the IR (src/core/ir/program.proto) that need nothing but a message: the
// value names an Argument refers to, the kinds, placeholders and targets of the InputSpec and
// OutputSpec unions, the FX name of a node, the dialect a program declares. Every layer asks
// these questions; the answers live here once.
#pragma once

#include <cstdint>
#include <string_view>
#include <vector>

#include "core/ir/state_kind.h"
#include "program.pb.h"

namespace pt2lint {

enum class Dialect { kUnknown, kTraining, kAten, kOther };

std::string_view dialect_name(Dialect dialect);
// The dialect `verifiers` (or, in older files, `dialect`) declares.
Dialect dialect_of(const ir::ExportedProgram& program);

// Every value name an Argument refers to (tensors, sym values, tokens, custom objects).
void collect_value_names(const ir::Argument& argument, std::vector<std::string_view>& out);
// The single value name a graph input/output Argument names, or "" for a constant.
std::string_view argument_value_name(const ir::Argument& argument);

// The FX node name: Node.name when present, else the first value it outputs, else "".
std::string_view fx_node_name(const ir::Node& node);
// The argument a node passes under keyword `name`, or nullptr.
const ir::Argument* named_input(const ir::Node& node, std::string_view name);
// What every higher-order op's target starts with ("torch.ops.higher_order.cond", ...).
inline constexpr std::string_view kHigherOrderPrefix = "torch.ops.higher_order.";

// Accessors over the InputSpec / OutputSpec unions (the kind of an input spec: state_kind.h).
std::string_view input_spec_arg_name(const ir::InputSpec& spec);  // placeholder the spec names
std::string_view input_spec_target(const ir::InputSpec& spec);    // FQN, or "" for user inputs
std::string_view output_spec_kind(const ir::OutputSpec& spec);
std::string_view output_spec_arg_name(const ir::OutputSpec& spec);  // "" for constant outputs
std::string_view output_spec_target(const ir::OutputSpec& spec);    // "" when it has none
bool is_mutation_output(const ir::OutputSpec& spec);  // buffer/parameter/user-input mutation

// The graph table that holds a value's metadata (Graph.tensor_values, .sym_int_values, ...).
enum class ValueTable : std::uint8_t { kTensor, kSymInt, kSymBool, kSymFloat };
std::string_view value_table_name(ValueTable table);  // "tensor_values", ...

// A value an Argument defines, with the table its metadata lives in.
struct TypedValue {
  std::string_view name;
  ValueTable table;
};
// The values of an Argument that have a metadata table: tensors and symbols. Constants,
// tokens and custom objects have none.
void collect_typed_values(const ir::Argument& argument, std::vector<TypedValue>& out);

}  // namespace pt2lint
