#include "lowering/effect_tokens.h"

#include <fmt/format.h>

#include "analysis/program_index.h"
#include "lowering/argument_values.h"
#include "lowering/name_allocator.h"

namespace pt2lint::lowering {
namespace {

bool is_effectful_op(std::string_view target);

// torch/_higher_order_ops/effects.py registers these as ordered side effects; custom ops
// registered with _register_effectful_op are not known here.
constexpr std::string_view kEffectfulOps[] = {"torch.ops.aten._print.default"};

bool any_effectful_inside(const ir::Graph& graph) {
  for (const ir::Node& node : graph.nodes()) {
    if (is_effectful_op(node.target())) return true;
    for (const ir::NamedArgument& input : node.inputs())
      if (input.arg().has_as_graph() && any_effectful_inside(input.arg().as_graph().graph())) return true;
  }
  return false;
}

template <typename Repeated>
void move_last_to_front(Repeated& field) {
  for (int i = field.size() - 1; i > 0; --i) field.SwapElements(i, i - 1);
}

// The metadata PyTorch gives a token: an empty float32 tensor on the CPU.
ir::TensorMeta token_meta() {
  ir::TensorMeta meta;
  meta.set_dtype(7);
  meta.add_sizes()->set_as_int(0);
  meta.add_strides()->set_as_int(1);
  meta.mutable_storage_offset()->set_as_int(0);
  meta.mutable_device()->set_type("cpu");
  meta.set_layout(7);
  return meta;
}

// Whether `target` ("torch.ops.aten._print.default") is an op PyTorch orders with tokens.
bool is_effectful_op(std::string_view target) {
  for (std::string_view op : kEffectfulOps)
    if (op == target) return true;
  return false;
}

}  // namespace

Status thread_effect_tokens(ir::ExportedProgram& program) {
  ir::GraphModule& module = *program.mutable_graph_module();
  ir::Graph& graph = *module.mutable_graph();
  bool top_level = false;
  for (const ir::Node& node : graph.nodes()) {
    top_level = top_level || is_effectful_op(node.target());
    for (const ir::NamedArgument& input : node.inputs()) {
      if (input.arg().has_as_graph() && any_effectful_inside(input.arg().as_graph().graph()))
        return Status::error(fmt::format("node '{}' ({}) calls an op with side effects inside its subgraph "
                                         "`{}`; the reference lowering orders effects with tokens at the top "
                                         "level only",
                                         node.name(), node.target(), input.arg().as_graph().name()));
    }
  }
  if (!top_level) return {};
  for (const ir::InputSpec& spec : module.signature().input_specs())
    if (spec.has_token()) return {};  // already threaded

  NameAllocator names;
  for (const ir::TensorMetaEntry& entry : graph.tensor_values()) names.reserve(entry.key());
  for (const ir::Argument& input : graph.inputs()) names.reserve(argument_value_name(input));
  for (const ir::Node& node : graph.nodes()) {
    names.reserve(node.name());
    for_each_output_tensor(node, [&](const std::string& name) { names.reserve(name); });
  }
  auto new_token = [&](std::string_view stem) {
    std::string name = names.fresh(stem);
    ir::TensorMetaEntry* entry = graph.add_tensor_values();
    entry->set_key(name);
    *entry->mutable_value() = token_meta();
    return name;
  };

  std::string token = new_token("token");
  graph.add_inputs()->mutable_as_tensor()->set_name(token);
  move_last_to_front(*graph.mutable_inputs());
  module.mutable_signature()->add_input_specs()->mutable_token()->mutable_arg()->set_name(token);
  move_last_to_front(*module.mutable_signature()->mutable_input_specs());

  for (ir::Node& node : *graph.mutable_nodes()) {
    if (!is_effectful_op(node.target())) continue;
    ir::Node wrapped;
    wrapped.set_target("torch.ops.higher_order.with_effects");
    wrapped.set_name(names.fresh("with_effects"));
    auto positional = [&](ir::Argument arg) {
      ir::NamedArgument* input = wrapped.add_inputs();
      *input->mutable_arg() = std::move(arg);
      input->set_kind(1);
    };
    ir::Argument token_arg;
    token_arg.mutable_as_tensor()->set_name(token);
    positional(token_arg);
    ir::Argument op;
    op.set_as_operator(node.target());
    positional(op);
    for (const ir::NamedArgument& input : node.inputs()) {
      if (input.has_kind() && input.kind() == 2) {
        *wrapped.add_inputs() = input;  // keyword arguments keep their names
      } else {
        positional(input.arg());
      }
    }
    token = new_token("getitem");
    wrapped.add_outputs()->mutable_as_tensor()->set_name(token);
    if (node.outputs_size() == 0) wrapped.add_outputs()->set_as_none(true);
    for (const ir::Argument& output : node.outputs()) *wrapped.add_outputs() = output;
    wrapped.set_is_hop_single_tensor_return(false);
    *wrapped.mutable_metadata() = node.metadata();
    node = std::move(wrapped);
  }

  graph.add_outputs()->mutable_as_tensor()->set_name(token);
  move_last_to_front(*graph.mutable_outputs());
  module.mutable_signature()->add_output_specs()->mutable_token()->mutable_arg()->set_name(token);
  move_last_to_front(*module.mutable_signature()->mutable_output_specs());
  return {};
}

}  // namespace pt2lint::lowering
