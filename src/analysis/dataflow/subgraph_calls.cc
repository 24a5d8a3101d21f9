#include "analysis/dataflow/subgraph_calls.h"

#include <algorithm>
#include <array>
#include <functional>
#include <set>

#include <fmt/format.h>

#include "analysis/dataflow/effective_mutations.h"
#include "analysis/dataflow/node_ops.h"
#include "analysis/dataflow/op_effects.h"
#include "analysis/dataflow/value_tracer.h"
#include "analysis/opschema/op_schema.h"
#include "analysis/opschema/undeclared_writes.h"
#include "analysis/program_index.h"
#include "core/ir/ir_accessors.h"

namespace pt2lint::dataflow {
namespace {

// Nesting pt2lint follows (cond in while_loop in ...); deeper writes are undecidable, which
// keeps a hostile file from exhausting the stack.
constexpr int kMaxDepth = 32;

// The values one operand contributes to a subgraph's inputs, flattened the way the op
// flattens its operands: a tensor list gives one input per element; anything that is not a
// tensor (a SymInt, a constant) gives one input bound to no caller tensor.
void flatten_operand(const ir::Argument& arg, std::vector<std::string_view>& out) {
  switch (arg.kind_case()) {
    case ir::Argument::kAsTensor: out.push_back(arg.as_tensor().name()); break;
    case ir::Argument::kAsTensors:
      for (const ir::TensorArgument& t : arg.as_tensors().items()) out.push_back(t.name());
      break;
    case ir::Argument::kAsOptionalTensor:
      out.push_back(arg.as_optional_tensor().has_as_tensor() ? arg.as_optional_tensor().as_tensor().name()
                                                            : std::string_view{});
      break;
    case ir::Argument::kAsOptionalTensors:
      for (const ir::OptionalTensorArgument& t : arg.as_optional_tensors().items())
        out.push_back(t.has_as_tensor() ? t.as_tensor().name() : std::string_view{});
      break;
    case ir::Argument::kAsSymInts:
      for (int i = 0; i < arg.as_sym_ints().items_size(); ++i) out.emplace_back();
      break;
    default: out.emplace_back(); break;
  }
}

// How one known op lays out its arguments (serialized positionally, in FX argument order):
// where its graphs are, and which arguments each graph's inputs are bound to.
struct GraphLayout {
  int position;          // index among the node's inputs
  int unbound_prefix;    // leading inputs bound to no caller tensor (flex attention scores)
  int operands_from;     // arguments [operands_from, operands_to) are flattened onto the rest
  int operands_to;       // -1: to the end
  bool operands_twice;   // associative_scan: combine_fn(xs_left..., xs_right..., extra...)
};
struct OpLayout {
  std::string_view op;
  std::array<GraphLayout, 2> graphs;
  int graph_count;
};

// Sources (PyTorch 2.11, torch/_higher_order_ops/): wrap.py (wrap_with_set_grad_enabled(
// enable, gm, *args), wrap_with_autocast(device_type, dtype, enabled, cache_enabled, gm,
// *args)), cond.py (cond(pred, true_fn, false_fn, operands)), while_loop.py (while_loop(
// cond_fn, body_fn, carried_inputs, additional_inputs)), map.py (map_impl(f, xs, pos_args):
// f gets one slice of each xs), scan.py (scan(combine_fn, init, xs, additional_inputs):
// carry, slices of xs, extras), associative_scan.py (associative_scan(combine_fn, xs,
// additional_inputs)), invoke_subgraph.py (invoke_subgraph(subgraph, identifier, *operands)),
// flex_attention.py (flex_attention(query, key, value, score_mod, block_mask, scale,
// kernel_options, score_mod_other_buffers, mask_mod_other_buffers): score_mod(score, b, h,
// q_idx, kv_idx, *score buffers), mask_mod(b, h, q_idx, kv_idx, *mask buffers)). A slice of
// an operand is bound to the operand: writing the slice writes it.
constexpr std::array<OpLayout, 9> kLayouts = {{
    {"wrap_with_set_grad_enabled", {{{1, 0, 2, -1, false}, {}}}, 1},
    {"wrap_with_autocast", {{{4, 0, 5, -1, false}, {}}}, 1},
    {"invoke_subgraph", {{{0, 0, 2, -1, false}, {}}}, 1},
    {"cond", {{{1, 0, 3, -1, false}, {2, 0, 3, -1, false}}}, 2},
    {"while_loop", {{{0, 0, 2, -1, false}, {1, 0, 2, -1, false}}}, 2},
    {"map_impl", {{{0, 0, 1, -1, false}, {}}}, 1},
    {"scan", {{{0, 0, 1, -1, false}, {}}}, 1},
    {"associative_scan", {{{0, 0, 1, -1, true}, {}}}, 1},
    // The mask graph sits inside block_mask, a tuple PyTorch 2.11 cannot serialize; in a
    // textproto it is the graph argument at position 4 (see docs/dataflow.md).
    {"flex_attention", {{{3, 5, 7, 8, false}, {4, 4, 8, 9, false}}}, 2},
}};

const OpLayout* layout_of(std::string_view op) {
  for (const OpLayout& layout : kLayouts)
    if (layout.op == op) return &layout;
  return nullptr;
}

SubgraphBinding bind(const ir::Node& node, const GraphLayout& layout) {
  SubgraphBinding binding;
  const ir::GraphArgument& arg = node.inputs(layout.position).arg().as_graph();
  binding.name = arg.name();
  binding.graph = &arg.graph();
  std::vector<std::string_view> inputs(static_cast<std::size_t>(layout.unbound_prefix));
  const int end = layout.operands_to < 0 ? node.inputs_size() : std::min(layout.operands_to, node.inputs_size());
  int from = layout.operands_from;
  if (layout.operands_twice && from < end) {
    // associative_scan's combine_fn takes a slice of each xs twice, then the extras.
    flatten_operand(node.inputs(from).arg(), inputs);
    flatten_operand(node.inputs(from).arg(), inputs);
    ++from;
  }
  for (int i = from; i < end; ++i) flatten_operand(node.inputs(i).arg(), inputs);
  if (static_cast<int>(inputs.size()) == arg.graph().inputs_size()) {
    binding.inputs = std::move(inputs);
    binding.bound = true;
  }
  return binding;
}

// Every tensor a node is passed, outside its graph arguments.
std::vector<std::string_view> tensor_operands(const ir::Node& node) {
  std::vector<std::string_view> values;
  for (const ir::NamedArgument& input : node.inputs()) {
    if (input.arg().has_as_graph()) continue;
    std::vector<std::string_view> flat;
    flatten_operand(input.arg(), flat);
    for (std::string_view v : flat)
      if (!v.empty() && std::find(values.begin(), values.end(), v) == values.end()) values.push_back(v);
  }
  return values;
}

std::string short_target(std::string_view target) {
  constexpr std::string_view kPrefix = "torch.ops.";
  return std::string(target.starts_with(kPrefix) ? target.substr(kPrefix.size()) : target);
}

std::string node_words(const ir::Node& node) {
  std::string_view name = node.has_name() ? std::string_view(node.name()) : std::string_view{};
  if (name.empty() && node.outputs_size() > 0 && node.outputs(0).has_as_tensor())
    name = node.outputs(0).as_tensor().name();
  return fmt::format("node `{}` ({})", name, short_target(node.target()));
}

// What a subgraph does to its own inputs.
struct InnerWrites {
  std::vector<std::string> written;      // per input: the writer, "" when not written
  std::vector<std::string> undecidable;  // per input: why it may be written, "" when not
  bool any() const {
    for (std::size_t i = 0; i < written.size(); ++i)
      if (!written[i].empty() || !undecidable[i].empty()) return true;
    return false;
  }
};

SubgraphWrites call_writes(const ProgramIndex& index, ValueTracer& tracer, int depth, Dialect dialect);

// `knowledge` and `dialect` are those of the program the subgraph belongs to: a subgraph has
// no signature of its own, and the same op schemas and Triton declarations apply inside.
InnerWrites writes_inside(const ir::Graph& graph, int depth, const OpKnowledge& knowledge, Dialect dialect) {
  InnerWrites inner;
  inner.written.resize(static_cast<std::size_t>(graph.inputs_size()));
  inner.undecidable.resize(inner.written.size());
  if (depth > kMaxDepth) {
    if (!mutating_nodes_anywhere(graph).empty()) {
      for (std::string& why : inner.undecidable)
        why = fmt::format("it nests higher-order ops more than {} deep", kMaxDepth);
    }
    return inner;
  }
  // The subgraph is its own scope: index it as a program of its own.
  ir::Program scope;
  *scope.mutable_program()->mutable_graph_module()->mutable_graph() = graph;
  ProgramIndex index(scope);
  index.set_op_knowledge(knowledge);
  NodeOps ops(index);
  ValueTracer tracer(index, ops);
  for (const InPlaceWrite& write : op_writes(index, ops, tracer)) {
    if (write.placeholder < 0) continue;
    std::string& slot = inner.written[static_cast<std::size_t>(write.placeholder)];
    if (slot.empty()) slot = node_words(index.graph().nodes(write.node));
  }
  // An op whose effects pt2lint does not know may write whatever input reaches it.
  for (int n = 0; n < index.graph().nodes_size(); ++n) {
    if (index.graph().nodes(n).target().starts_with(kHigherOrderPrefix) &&
        is_known_subgraph_op(index.graph().nodes(n).target().substr(kHigherOrderPrefix.size())))
      continue;  // its subgraphs are followed below
    const Status known = check_effects_known(index, ops, n, dialect);
    if (known.ok()) continue;
    const std::string& why = known.message();
    for (std::string_view value : node_tensor_values(index.graph().nodes(n))) {
      const int input = tracer.alias_root(value).placeholder;
      if (input < 0) continue;
      std::string& slot = inner.undecidable[static_cast<std::size_t>(input)];
      if (slot.empty()) slot = fmt::format("{}, {}, may write it", node_words(index.graph().nodes(n)), why);
    }
  }
  if (index.subgraph_nodes().empty()) return inner;
  SubgraphWrites nested = call_writes(index, tracer, depth, dialect);
  for (const InPlaceWrite& write : nested.writes) {
    if (write.placeholder < 0) continue;
    std::string& slot = inner.written[static_cast<std::size_t>(write.placeholder)];
    if (slot.empty()) slot = write.via + fmt::format(" in subgraph `{}` of {}", write.argument,
                                                     node_words(index.graph().nodes(write.node)));
  }
  for (const UndecidableWrite& write : nested.possible) {
    if (write.placeholder < 0) continue;
    std::string& slot = inner.undecidable[static_cast<std::size_t>(write.placeholder)];
    if (slot.empty()) slot = write.reason;
  }
  return inner;
}

}  // namespace

bool is_known_subgraph_op(std::string_view op) { return layout_of(op) != nullptr; }

SubgraphCall bind_subgraph_call(const ir::Node& node) {
  SubgraphCall call;
  std::string_view target = node.target();
  call.op = target.starts_with(kHigherOrderPrefix) ? target.substr(kHigherOrderPrefix.size()) : target;
  const OpLayout* layout = layout_of(call.op);
  call.known = layout != nullptr && target.starts_with(kHigherOrderPrefix);
  std::vector<int> positions;
  for (int i = 0; i < node.inputs_size(); ++i)
    if (node.inputs(i).arg().has_as_graph()) positions.push_back(i);
  bool fits = call.known && static_cast<int>(positions.size()) == layout->graph_count;
  for (int g = 0; fits && g < layout->graph_count; ++g)
    fits = positions[static_cast<std::size_t>(g)] == layout->graphs[static_cast<std::size_t>(g)].position;
  call.fits = fits;
  for (std::size_t g = 0; g < positions.size(); ++g) {
    if (fits) {
      call.subgraphs.push_back(bind(node, layout->graphs[g]));
    } else {
      const ir::GraphArgument& arg = node.inputs(positions[g]).arg().as_graph();
      call.subgraphs.push_back({arg.name(), &arg.graph(), {}, false});
    }
  }
  return call;
}

SubgraphWrites subgraph_call_writes(const ProgramIndex& index, ValueTracer& tracer, int depth) {
  return call_writes(index, tracer, depth, index.dialect());
}

namespace {

SubgraphWrites call_writes(const ProgramIndex& index, ValueTracer& tracer, int depth, Dialect dialect) {
  SubgraphWrites out;
  for (int n : index.subgraph_nodes()) {
    const ir::Node& node = index.graph().nodes(n);
    const SubgraphCall call = bind_subgraph_call(node);
    std::set<std::string_view> possible;  // one UndecidableWrite per value and node
    auto add_possible = [&](std::string_view value, std::string reason) {
      if (value.empty() || !possible.insert(value).second) return;
      out.possible.push_back({n, value, tracer.alias_root(value).placeholder, std::move(reason)});
    };
    for (const SubgraphBinding& sub : call.subgraphs) {
      const InnerWrites inner = writes_inside(*sub.graph, depth + 1, index.op_knowledge(), dialect);
      if (!inner.any()) continue;
      if (!sub.bound) {
        std::string writer;
        for (std::size_t i = 0; i < inner.written.size() && writer.empty(); ++i)
          writer = !inner.written[i].empty() ? inner.written[i] : inner.undecidable[i];
        const std::string reason =
            call.known ? fmt::format("the operands of `{}` do not fit the inputs of its subgraph `{}`, "
                                     "which writes one of them ({})", call.op, sub.name, writer)
                       : fmt::format("subgraph `{}` of `{}`, a higher-order op pt2lint does not know, "
                                     "writes one of its inputs ({})", sub.name, call.op, writer);
        for (std::string_view value : tensor_operands(node)) add_possible(value, reason);
        continue;
      }
      for (std::size_t i = 0; i < sub.inputs.size(); ++i) {
        const std::string_view value = sub.inputs[i];
        if (value.empty()) continue;
        if (!inner.written[i].empty()) {
          out.writes.push_back({n, sub.name, value, tracer.alias_root(value).placeholder,
                                inner.written[i]});
        } else if (!inner.undecidable[i].empty()) {
          add_possible(value, fmt::format("inside subgraph `{}` of `{}`: {}", sub.name, call.op,
                                          inner.undecidable[i]));
        }
      }
    }
  }
  return out;
}

}  // namespace

std::vector<CallOutputAlias> call_output_aliases(const ir::Node& node) {
  std::vector<CallOutputAlias> aliases(static_cast<std::size_t>(node.outputs_size()));
  const SubgraphCall call = bind_subgraph_call(node);
  if (call.op != "wrap_with_set_grad_enabled" && call.op != "wrap_with_autocast" && call.op != "invoke_subgraph")
    return aliases;
  if (call.subgraphs.size() != 1 || !call.subgraphs[0].bound) return aliases;
  const SubgraphBinding& sub = call.subgraphs[0];
  ir::Program scope;
  *scope.mutable_program()->mutable_graph_module()->mutable_graph() = *sub.graph;
  ProgramIndex index(scope);
  NodeOps ops(index);
  ValueTracer tracer(index, ops);
  const int count = std::min(sub.graph->outputs_size(), node.outputs_size());
  for (int k = 0; k < count; ++k) {
    const std::string_view returned = argument_value_name(sub.graph->outputs(k));
    if (returned.empty()) continue;
    const int input = tracer.alias_root(returned).placeholder;
    if (input < 0 || input >= static_cast<int>(sub.inputs.size())) continue;
    CallOutputAlias& alias = aliases[static_cast<std::size_t>(k)];
    alias.value = sub.inputs[static_cast<std::size_t>(input)];
    alias.written = tracer.update_origin(returned).updated;
    alias.same_tensor = true;
    for (const TraceStep& step : tracer.chain(returned, /*follow_updates=*/false))
      alias.same_tensor = alias.same_tensor && (step.kind == StepKind::kInPlace || step.kind == StepKind::kPlaceholder);
  }
  return aliases;
}

bool only_subgraph_calls(const ProgramIndex& index, const std::vector<int>& nodes) {
  const std::vector<int>& calls = index.subgraph_nodes();
  for (int node : nodes)
    if (!std::binary_search(calls.begin(), calls.end(), node)) return false;
  return !nodes.empty();
}

std::vector<std::string> mutating_nodes_anywhere(const ir::Graph& graph) {
  std::vector<std::string> found;
  std::function<void(const ir::Graph&, int)> visit = [&](const ir::Graph& g, int depth) {
    for (const ir::Node& node : g.nodes()) {
      if (auto name = opschema::parse_serialized_target(node.target())) {
        if (auto schema = opschema::find_schema(*name)) {
          bool writes = schema->is_mutable();
          opschema::for_each_undeclared_write(*schema, node, [&](std::string_view) { writes = true; });
          if (writes) found.push_back(node_words(node));
        }
      }
      for (const ir::NamedArgument& input : node.inputs()) {
        if (!input.arg().has_as_graph()) continue;
        if (depth >= kMaxDepth) {
          found.push_back(fmt::format("subgraphs nested more than {} deep in {}", kMaxDepth, node_words(node)));
          continue;
        }
        visit(input.arg().as_graph().graph(), depth + 1);
      }
    }
  };
  visit(graph, 0);
  return found;
}

}  // namespace pt2lint::dataflow
