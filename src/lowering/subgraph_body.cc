#include "lowering/subgraph_body.h"

#include <fmt/format.h>

#include "analysis/dataflow/subgraph_calls.h"
#include "analysis/program_index.h"
#include "lowering/argument_values.h"
#include "lowering/functionalize.h"

namespace pt2lint::lowering {

namespace {

Expected<FunctionalBody> functionalize_body(const ir::Graph& body) {
  FunctionalBody result;
  // The body as a program of its own: every input a user input, every output a user output,
  // so the functionalizer gives each written input a user_input_mutation output.
  ir::Program scope;
  ir::ExportedProgram& program = *scope.mutable_program();
  program.add_verifiers("TRAINING");
  ir::GraphModule& module = *program.mutable_graph_module();
  *module.mutable_graph() = body;
  for (const ir::Argument& input : body.inputs())
    *module.mutable_signature()->add_input_specs()->mutable_user_input()->mutable_arg() = input;
  for (const ir::Argument& output : body.outputs())
    *module.mutable_signature()->add_output_specs()->mutable_user_output()->mutable_arg() = output;

  const Expected<Functionalized> lowered = functionalize(scope, /*whole_program=*/false);
  if (!lowered.ok()) return lowered.status();
  result.writes = lowered->writes;
  const ir::GraphModule& out = scope.program().graph_module();
  result.graph = out.graph();
  result.graph.clear_outputs();
  std::vector<const ir::Argument*> new_values;
  for (int i = 0; i < out.signature().output_specs_size() && i < out.graph().outputs_size(); ++i) {
    const ir::OutputSpec& spec = out.signature().output_specs(i);
    if (!spec.has_user_input_mutation()) {
      *result.graph.add_outputs() = out.graph().outputs(i);
      continue;
    }
    const std::string& written = spec.user_input_mutation().user_input_name();
    for (int k = 0; k < body.inputs_size(); ++k) {
      if (argument_value_name(body.inputs(k)) != written) continue;
      result.written_inputs.push_back(k);
      new_values.push_back(&out.graph().outputs(i));
      break;
    }
  }
  for (const ir::Argument* value : new_values) *result.graph.add_outputs() = *value;
  if (!new_values.empty()) result.graph.set_is_single_tensor_return(false);
  return result;
}

}  // namespace

bool has_graph_argument(const ir::Node& node) {
  for (const ir::NamedArgument& input : node.inputs())
    if (input.arg().has_as_graph()) return true;
  return false;
}

Expected<LoweredCall> lower_subgraph_call(const ir::Node& node, const CallerValues& caller) {
  LoweredCall result;
  result.node = node;
  for (ir::NamedArgument& input : *result.node.mutable_inputs())
    rewrite_tensor_names(*input.mutable_arg(), caller.read);  // graph arguments are left alone
  const dataflow::SubgraphCall call = dataflow::bind_subgraph_call(node);
  const std::string name = node.has_name() ? node.name() : std::string(call.op);
  const std::vector<dataflow::CallOutputAlias> aliases = dataflow::call_output_aliases(node);
  for (std::size_t k = 0; k < aliases.size(); ++k) {
    const std::string out(single_tensor(node.outputs(static_cast<int>(k))));
    if (aliases[k].value.empty() || out.empty()) continue;
    if (aliases[k].same_tensor) {
      result.same_as.emplace_back(out, std::string(aliases[k].value));
    } else {
      result.view_outputs.push_back(out);
    }
  }
  for (const dataflow::SubgraphBinding& sub : call.subgraphs) {
    const std::vector<std::string> writers = dataflow::mutating_nodes_anywhere(*sub.graph);
    if (writers.empty()) continue;
    if (call.op != "wrap_with_set_grad_enabled" && call.op != "wrap_with_autocast") {
      return Status::error(fmt::format(
          "node '{}' ({}) writes inside its subgraph `{}` ({}); the reference lowering "
          "functionalizes writes only inside wrap_with_set_grad_enabled and wrap_with_autocast "
          "regions, and refuses to guess how {} would carry them out",
          name, node.target(), sub.name, writers.front(), call.op));
    }
    if (!sub.bound) {
      return Status::error(fmt::format("node '{}' ({}): its operands do not fit the inputs of subgraph `{}`, "
                                       "which writes ({})", name, node.target(), sub.name, writers.front()));
    }
    Expected<FunctionalBody> functional = functionalize_body(*sub.graph);
    if (!functional.ok())
      return Status::error(fmt::format("inside subgraph `{}` of node '{}': {}", sub.name, name, functional.message()));
    FunctionalBody& body = functional.value();
    result.rewritten += body.writes;
    for (ir::NamedArgument& input : *result.node.mutable_inputs()) {
      if (input.arg().has_as_graph() && input.arg().as_graph().name() == sub.name)
        *input.mutable_arg()->mutable_as_graph()->mutable_graph() = std::move(body.graph);
    }
    for (int k : body.written_inputs) {
      const std::string value(sub.inputs[static_cast<std::size_t>(k)]);
      if (value.empty()) {
        return Status::error(fmt::format("node '{}' ({}) writes input {} of subgraph `{}`, which is bound to "
                                         "no tensor of the caller", name, node.target(), k, sub.name));
      }
      const std::string now = caller.fresh("getitem");
      caller.copy_meta(value, now);
      result.node.add_outputs()->mutable_as_tensor()->set_name(now);
      result.writes.emplace_back(value, now);
    }
    // The body returns a tuple now, and the call one output per element.
    if (!body.written_inputs.empty()) result.node.set_is_hop_single_tensor_return(false);
  }
  return result;
}

}  // namespace pt2lint::lowering
