#include "analysis/dataflow/node_ops.h"

#include <array>
#include <unordered_map>

#include "analysis/opschema/schema_catalog.h"
#include "analysis/opschema/undeclared_writes.h"
#include "analysis/dataflow/triton_kernels.h"

#include "analysis/program_index.h"

namespace pt2lint::dataflow {

namespace {

OpFacts facts_for(std::string_view target, const opschema::SchemaCatalog* schemas) {
  OpFacts facts;
  if (auto name = opschema::parse_serialized_target(target)) {
    facts.schema = opschema::lookup_schema(*name, schemas).schema;
    facts.custom_op = !facts.schema;
  }
  // Its outputs are the new values of the bases it updates (auto_functionalized.h).
  if (auto_functionalized_version(target) != AutoFunctionalizedVersion::kNone || is_triton_functional(target))
    facts.may_update = true;
  if (!facts.schema) return facts;
  const opschema::OpSchema& schema = *facts.schema;
  facts.may_write = schema.is_mutable();
  for (const opschema::UndeclaredWrite& entry : opschema::undeclared_writes())
    facts.may_write = facts.may_write || entry.op == schema.name();
  facts.may_update = schema.is_mutable() || schema.inplace_twin().has_value() ||
                     is_write_form_op(schema.base_name());
  for (const auto& ret : schema.returns())
    facts.may_update = facts.may_update || (ret.name.size() > 4 && ret.name.ends_with("_out"));
  return facts;
}

}  // namespace

NodeOps::NodeOps(const ProgramIndex& index)
    : graph_(index.graph()), node_facts_(index.graph().nodes_size(), -1), schemas_(index.op_schemas()) {}

const OpFacts& NodeOps::facts(int node) {
  int& slot = node_facts_[node];
  if (slot < 0) {
    // Programs use few distinct targets; each is parsed and looked up once.
    std::string_view target = graph_.nodes(node).target();
    slot = by_target_.intern(target);
    if (static_cast<std::size_t>(slot) == facts_.size()) facts_.push_back(facts_for(target, schemas_));
  }
  return facts_[slot];
}

const opschema::OpSchema* NodeOps::schema(int node) {
  if (node < 0 || node >= static_cast<int>(node_facts_.size())) return nullptr;
  const OpFacts& f = facts(node);
  return f.schema ? &*f.schema : nullptr;
}

const std::vector<std::string_view>& NodeOps::unknown_targets() {
  if (all_resolved_) return unknown_targets_;
  all_resolved_ = true;
  std::unordered_map<std::string_view, bool> seen;
  for (int n = 0; n < static_cast<int>(node_facts_.size()); ++n) {
    if (facts(n).schema) continue;
    std::string_view target = graph_.nodes(n).target();
    if (seen.try_emplace(target, true).second) unknown_targets_.push_back(target);
  }
  return unknown_targets_;
}

const AutoFunctionalizedCall* NodeOps::auto_functionalized(int node) {
  if (node < 0 || node >= graph_.nodes_size()) return nullptr;
  const std::string_view target = graph_.nodes(node).target();
  const bool triton = is_triton_functional(target);
  if (!triton && auto_functionalized_version(target) == AutoFunctionalizedVersion::kNone) return nullptr;
  auto [it, inserted] = auto_functionalized_.try_emplace(node);
  if (inserted) {
    Expected<AutoFunctionalizedCall> call = triton ? decode_triton_functional(graph_.nodes(node))
                                                   : decode_auto_functionalized(graph_.nodes(node), schemas_);
    if (call.ok()) it->second = std::move(call).value();  // else not decodable: no call
  }
  return it->second ? &*it->second : nullptr;
}

bool is_write_form_op(std::string_view op) {
  static constexpr std::array<std::string_view, 13> kOps = {
      "index_put", "index_copy", "index_add", "index_fill", "index_reduce", "copy",
      "masked_scatter", "masked_fill", "scatter", "scatter_add", "scatter_reduce", "put",
      "fill"};
  for (std::string_view name : kOps)
    if (op == name) return true;
  return op.ends_with("_scatter");  // slice_scatter, select_scatter, diagonal_scatter, ...
}

std::string_view tensor_input(const ir::Node& node, std::string_view name) {
  for (const ir::NamedArgument& input : node.inputs()) {
    if (input.name() != name) continue;
    const ir::Argument& arg = input.arg();
    if (arg.has_as_tensor()) return arg.as_tensor().name();
    if (arg.has_as_optional_tensor() && arg.as_optional_tensor().has_as_tensor())
      return arg.as_optional_tensor().as_tensor().name();
    return {};
  }
  return {};
}

int output_slot(const ir::Node& node, std::string_view value) {
  for (int k = 0; k < node.outputs_size(); ++k) {
    const ir::Argument& out = node.outputs(k);
    if (out.has_as_tensor() && out.as_tensor().name() == value) return k;
    if (out.has_as_tensors()) {
      for (const ir::TensorArgument& t : out.as_tensors().items())
        if (t.name() == value) return k;
    }
    if (out.has_as_optional_tensor() && out.as_optional_tensor().has_as_tensor() &&
        out.as_optional_tensor().as_tensor().name() == value)
      return k;
  }
  return -1;
}

}  // namespace pt2lint::dataflow
