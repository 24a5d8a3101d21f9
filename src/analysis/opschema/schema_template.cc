#include "analysis/opschema/schema_template.h"

#include <algorithm>

#include "analysis/opschema/op_schema.h"

namespace pt2lint::opschema {
namespace {

std::string_view type_of(const ir::Argument& arg) {
  if (arg.has_as_tensor()) return "Tensor";
  if (arg.has_as_optional_tensor()) return "Tensor?";
  if (arg.has_as_tensors()) return "Tensor[]";
  if (arg.has_as_optional_tensors()) return "Tensor?[]";
  if (arg.has_as_int()) return "int";
  if (arg.has_as_ints()) return "int[]";
  if (arg.has_as_sym_int()) return "SymInt";
  if (arg.has_as_sym_ints()) return "SymInt[]";
  if (arg.has_as_float()) return "float";
  if (arg.has_as_floats()) return "float[]";
  if (arg.has_as_bool()) return "bool";
  if (arg.has_as_bools()) return "bool[]";
  if (arg.has_as_string()) return "str";
  if (arg.has_as_scalar_type()) return "ScalarType";
  if (arg.has_as_device()) return "Device";
  if (arg.has_as_layout()) return "Layout";
  if (arg.has_as_memory_format()) return "MemoryFormat";
  return "Any";
}

}  // namespace

std::string schema_template(const ir::Node& node, const std::vector<std::string>& written) {
  std::optional<OperatorName> name = parse_serialized_target(node.target());
  if (!name) return {};
  std::string out = name->name;
  if (!name->overload.empty()) out.append(".").append(name->overload);
  out += "(";
  int position = 0, sets = 0;
  for (const ir::NamedArgument& input : node.inputs()) {
    if (position++ > 0) out += ", ";
    std::string_view type = type_of(input.arg());
    const bool writes = std::find(written.begin(), written.end(), input.name()) != written.end();
    if (writes && type.starts_with("Tensor")) {
      out += "Tensor(a" + std::to_string(sets++) + "!)";
      type.remove_prefix(6);  // keeps `?` and `[]`
    }
    out.append(type).append(" ");
    out += input.name().empty() ? "arg" + std::to_string(position - 1) : input.name();
  }
  out += ") -> ";
  std::vector<std::string_view> returns;
  for (const ir::Argument& output : node.outputs())
    if (!output.has_as_none()) returns.push_back(type_of(output));
  if (returns.size() == 1) return out.append(returns[0]);
  out += "(";
  for (std::size_t i = 0; i < returns.size(); ++i) out.append(i ? ", " : "").append(returns[i]);
  return out + ")";
}

}  // namespace pt2lint::opschema
