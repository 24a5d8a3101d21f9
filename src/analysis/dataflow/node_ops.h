// Each node's operator schema, resolved once per program, with the per-op facts the
// whole-program sweeps test on every node.
#pragma once

#include <optional>
#include <string_view>
#include <unordered_map>
#include <vector>

#include "program.pb.h"
#include "analysis/dataflow/auto_functionalized.h"
#include "analysis/opschema/op_schema.h"
#include "support/name_table.h"

namespace pt2lint {

class ProgramIndex;

namespace dataflow {

struct OpFacts {
  std::optional<opschema::OpSchema> schema;  // nullopt: not in the table nor a catalog
  bool custom_op = false;    // a `torch.ops.NS.OP.OVERLOAD` target with no known schema
  bool may_write = false;   // declares `(a!)` or has an entry in undeclared_writes()
  bool may_update = false;  // some output can be an update step (see ValueTracer)
};

// Resolves lazily: a rule that traces a handful of values reads only the nodes it visits.
class NodeOps {
 public:
  explicit NodeOps(const ProgramIndex& index);

  // nullptr for an op that is not in the table: a custom op, `_operator.*`, a higher-order
  // op. Callers treat those conservatively (no write, no alias known).
  const opschema::OpSchema* schema(int node);
  const OpFacts& facts(int node);
  // Distinct targets without a schema, in graph order of first use (resolves every node).
  const std::vector<std::string_view>& unknown_targets();
  // The decoded auto_functionalized(_v2) or triton_kernel_wrapper_functional call of `node`
  // (a functional call whose outputs are new values of its bases), or nullptr (another op, or
  // an encoding that cannot be read; see auto_functionalized.h, triton_kernels.h). Decoded once.
  const AutoFunctionalizedCall* auto_functionalized(int node);

 private:
  const ir::Graph& graph_;
  std::vector<OpFacts> facts_;     // one per distinct target: index i is by_target_'s id i
  std::vector<int> node_facts_;    // node -> index into facts_, -1 until resolved
  NameTable by_target_;
  std::vector<std::string_view> unknown_targets_;
  bool all_resolved_ = false;
  const opschema::SchemaCatalog* schemas_ = nullptr;
  std::unordered_map<int, std::optional<AutoFunctionalizedCall>> auto_functionalized_;
};

// The value name bound to tensor argument `name` of `node` (`as_tensor`, or a present
// `as_optional_tensor`), or "" when the argument is absent or not a single tensor.
std::string_view tensor_input(const ir::Node& node, std::string_view name);
// Which of the node's outputs (schema return index) defines `value`, or -1.
int output_slot(const ir::Node& node, std::string_view value);
// index_put, copy, *_scatter, ...: ops that write part of `self` and keep the rest, in
// their functional form (see docs/dataflow.md).
bool is_write_form_op(std::string_view base_name);

}  // namespace dataflow
}  // namespace pt2lint
