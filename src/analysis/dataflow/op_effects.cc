#include "analysis/dataflow/op_effects.h"

#include <array>

#include <fmt/format.h>

#include "analysis/dataflow/auto_functionalized.h"
#include "analysis/dataflow/node_ops.h"
#include "analysis/dataflow/subgraph_calls.h"
#include "analysis/dataflow/triton_kernels.h"
#include "analysis/program_index.h"

namespace pt2lint::dataflow {
namespace {

// Nesting of lists and dicts followed inside one argument; deeper is a hostile file, and its
// tensors are still reported (as "the argument") by the caller's conservative fallback.
constexpr int kMaxArgumentDepth = 16;

void visit(const ir::Argument& arg, const std::function<void(std::string_view)>& fn, int depth) {
  switch (arg.kind_case()) {
    case ir::Argument::kAsTensor: fn(arg.as_tensor().name()); break;
    case ir::Argument::kAsOptionalTensor:
      if (arg.as_optional_tensor().has_as_tensor()) fn(arg.as_optional_tensor().as_tensor().name());
      break;
    case ir::Argument::kAsTensors:
      for (const ir::TensorArgument& t : arg.as_tensors().items()) fn(t.name());
      break;
    case ir::Argument::kAsOptionalTensors:
      for (const ir::OptionalTensorArgument& t : arg.as_optional_tensors().items())
        if (t.has_as_tensor()) fn(t.as_tensor().name());
      break;
    case ir::Argument::kAsNestedTensors:
      for (const ir::TensorArgumentList& list : arg.as_nested_tensors().items())
        for (const ir::TensorArgument& t : list.items()) fn(t.name());
      break;
    case ir::Argument::kAsStringToArgument:
      if (depth >= kMaxArgumentDepth) break;
      for (const ir::StringToArgumentEntry& entry : arg.as_string_to_argument().items())
        visit(entry.value(), fn, depth + 1);
      break;
    default: break;
  }
}

// Higher-order ops with no subgraph whose effects are modelled elsewhere: with_effects orders
// a functional op behind a token (lowering/effect_tokens.h); out_dtype and
// run_and_save_rng_state/run_with_rng_state compute fresh values.
constexpr std::array<std::string_view, 4> kModelled = {"with_effects", "out_dtype", "run_and_save_rng_state",
                                                       "run_with_rng_state"};

// Every tensor value an argument holds, at any depth of lists and dicts (bounded), in order.
void for_each_tensor_value(const ir::Argument& arg, const std::function<void(std::string_view)>& fn) {
  visit(arg, fn, 0);
}

}  // namespace

std::vector<std::string_view> node_tensor_values(const ir::Node& node) {
  std::vector<std::string_view> values;
  for (const ir::NamedArgument& input : node.inputs()) {
    if (input.arg().has_as_graph()) continue;
    for_each_tensor_value(input.arg(), [&](std::string_view v) { values.push_back(v); });
  }
  return values;
}

namespace {

// Higher-order ops without subgraphs whose effects pt2lint models (or knows to be none).
bool is_modelled_higher_order_op(std::string_view target) {
  if (!target.starts_with(kHigherOrderPrefix)) return false;
  const std::string_view op = target.substr(kHigherOrderPrefix.size());
  for (std::string_view known : kModelled)
    if (op == known) return true;
  return false;
}

}  // namespace

const char* const kUnknownSchema = "whose schema pt2lint does not know";

Status check_effects_known(const ProgramIndex& index, NodeOps& ops, int node, Dialect dialect) {
  const ir::Node& n = index.graph().nodes(node);
  const std::string_view target = n.target();
  if (auto_functionalized_version(target) != AutoFunctionalizedVersion::kNone) {
    if (ops.auto_functionalized(node) != nullptr) return {};
    return Status::error("whose auto_functionalized encoding pt2lint cannot read");
  }
  if (is_triton_functional(target)) {
    if (ops.auto_functionalized(node) != nullptr) return {};
    return Status::error("whose triton_kernel_wrapper_functional encoding pt2lint cannot read");
  }
  if (is_triton_mutation(target)) {
    const TritonLaunch launch = decode_triton_launch(n);
    if (declared_triton_writes(launch, index.op_schemas()).has_value()) return {};
    return Status::error("which launches a user Triton kernel whose written arguments are not declared");
  }
  if (target.starts_with(kHigherOrderPrefix)) {
    const std::string_view op = target.substr(kHigherOrderPrefix.size());
    if (is_known_subgraph_op(op) || is_modelled_higher_order_op(target)) return {};
    return Status::error(fmt::format("a higher-order op (`{}`) pt2lint does not model", op));
  }
  // ATEN programs are functional by contract (a custom op that writes is auto_functionalized).
  if (dialect == Dialect::kAten) return {};
  if (ops.facts(node).custom_op) return Status::error(kUnknownSchema);
  return {};
}

}  // namespace pt2lint::dataflow
