// Writes that the schemas do not declare.
//
// A few ATen ops update their arguments in place without a `(a!)` annotation: the schema
// describes the op's autograd contract, not its kernel. pt2lint treats these writes exactly
// like declared ones. Every entry names its evidence, a corpus program or a PyTorch source
// location, so the table stays small and checkable.
#pragma once

#include <span>
#include <string_view>

#include "program.pb.h"
#include "analysis/opschema/op_schema.h"

namespace pt2lint::opschema {

struct UndeclaredWrite {
  std::string_view op;           // qualified name, any overload: "aten::batch_norm"
  std::string_view argument;     // the argument written: "running_mean"
  std::string_view when_true;    // the bool argument that enables the write: "training"
  std::string_view evidence;
};

std::span<const UndeclaredWrite> undeclared_writes();

// Calls `written(argument_name)` for every undeclared write this node performs: its op has
// an entry, the enabling argument is literally `true`, and the written argument is a tensor.
template <typename Callback>
void for_each_undeclared_write(const OpSchema& schema, const ir::Node& node, Callback&& written);

bool node_bool_argument(const ir::Node& node, std::string_view name, bool& value);
bool node_has_tensor_argument(const ir::Node& node, std::string_view name);

template <typename Callback>
void for_each_undeclared_write(const OpSchema& schema, const ir::Node& node, Callback&& written) {
  for (const UndeclaredWrite& entry : undeclared_writes()) {
    if (entry.op != schema.name()) continue;
    bool enabled = false;
    if (!node_bool_argument(node, entry.when_true, enabled) || !enabled) continue;
    if (node_has_tensor_argument(node, entry.argument)) written(entry.argument);
  }
}

}  // namespace pt2lint::opschema
