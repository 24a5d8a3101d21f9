// One lowering per kind of node of a functionalize() run: a node that writes nothing is kept
// (reading the current names of its inputs), an in-place op becomes its functional twin, a
// training batch_norm its functional form, a custom op that writes auto_functionalized_v2,
// and a higher-order op is lowered with its subgraphs (subgraph_body.h).
#include <string>
#include <utility>
#include <vector>

#include <fmt/format.h>

#include "analysis/opschema/undeclared_writes.h"
#include "analysis/program_index.h"
#include "lowering/argument_values.h"
#include "lowering/auto_functionalize.h"
#include "lowering/functionalizer.h"
#include "lowering/provenance.h"
#include "lowering/subgraph_body.h"

namespace pt2lint::lowering {
namespace {

using opschema::OpSchema;

std::string serialized_target(const OpSchema& schema) {
  return "torch.ops." + schema.provenance_target();
}

// The functional twin the table records, else the one the naming convention implies
// (`foo_` -> `foo`, `foo` -> `foo_functional`), as long as the table has it.
std::optional<OpSchema> functional_twin_of(const OpSchema& schema) {
  if (auto twin = schema.functional_twin()) return twin;
  std::string name(schema.name());
  if (name.ends_with('_')) {
    if (auto twin = opschema::find_schema(name.substr(0, name.size() - 1), schema.overload())) return twin;
  }
  return opschema::find_schema(name + "_functional", schema.overload());
}

}  // namespace

void Functionalizer::process(int index) {
  const ir::Node& node = graph_.nodes(index);
  if (has_graph_argument(node)) {
    lower_call(node);
    return;
  }
  const auto schema = schema_of(node.target());
  if (!schema) {
    if (auto custom = custom_mutating_schema(node.target(), schemas_)) return lower_custom_write(node, *custom);
    keep(index, nullptr);
    return;
  }
  if (is_training_batch_norm(*schema, node)) {
    lower_batch_norm(node, *schema);
    return;
  }
  std::string undeclared;
  opschema::for_each_undeclared_write(*schema, node, [&](std::string_view argument) {
    if (undeclared.empty()) undeclared = std::string(argument);
  });
  if (!undeclared.empty()) {
    throw LoweringError{fmt::format(
        "node '{}' ({}) writes its argument '{}' although its schema does not say so; the "
        "reference lowering rewrites only batch_norm and native_batch_norm of that kind",
        fx_node_name(node), node.target(), undeclared)};
  }
  if (schema->is_mutable()) {
    lower_write(node, *schema);
    return;
  }
  keep(index, &*schema);
}

// A higher-order op: its subgraphs are functionalized (or refused) by subgraph_body.cc.
void Functionalizer::lower_call(const ir::Node& node) {
  CallerValues caller{[&](const std::string& v) { return read(v); },
                      [&](std::string_view stem) { return names_.fresh(stem); },
                      [&](const std::string& from, const std::string& to) { copy_meta(from, to); }};
  Expected<LoweredCall> lowered = lower_subgraph_call(node, caller);
  if (!lowered.ok()) throw LoweringError{lowered.message()};
  LoweredCall& call = lowered.value();
  nodes_.push_back(std::move(call.node));
  for (const auto& [value, now] : call.writes) write(value, now, node);
  // An output that is the operand itself reads (and writes) the operand from now on.
  for (const auto& [out, value] : call.same_as) same_as_[out] = canonical(value);
  for (const std::string& out : call.view_outputs) call_views_.insert(out);
  rewritten_ += call.rewritten;
}

void Functionalizer::keep(int index, const OpSchema* schema) {
  const ir::Node& node = graph_.nodes(index);
  ir::Node copy = node;
  for (ir::NamedArgument& input : *copy.mutable_inputs())
    rewrite_tensor_names(*input.mutable_arg(), [&](const std::string& v) { return read(v); });
  nodes_.push_back(std::move(copy));
  if (schema != nullptr) record_views(index, *schema);
}

void Functionalizer::keep_unindexed(const ir::Node& node) {
  ir::Node copy = node;
  for (ir::NamedArgument& input : *copy.mutable_inputs())
    rewrite_tensor_names(*input.mutable_arg(), [&](const std::string& v) { return read(v); });
  nodes_.push_back(std::move(copy));
}

// The arguments an in-place op writes, each a single tensor (a written tensor list is refused).
std::vector<Functionalizer::Written> Functionalizer::written_arguments(const ir::Node& node,
                                                                      const OpSchema& schema) const {
  std::vector<Written> written;
  for (const opschema::ArgumentRecord& argument : schema.arguments()) {
    if (!argument.writes) continue;
    const ir::NamedArgument* input = find_input(node, argument.name);
    if (input == nullptr) continue;
    if (is_tensor_list(input->arg())) {
      throw LoweringError{fmt::format(
          "node '{}' ({}) writes the tensor list '{}'; the reference lowering functionalizes "
          "writes to single tensors only",
          fx_node_name(node), node.target(), argument.name)};
    }
    const std::string value(single_tensor(input->arg()));
    if (!value.empty()) written.push_back({std::string(argument.name), value});
  }
  return written;
}

namespace {

// Which return of the twin is the new value of each written argument: `X_out` by name, else
// the only return of a single-write op (`add_` -> `add`).
std::vector<int> twin_return_of(const std::vector<std::string>& arguments, const OpSchema& twin) {
  const auto returns = twin.returns();
  std::vector<int> return_of(arguments.size(), -1);
  for (std::size_t w = 0; w < arguments.size(); ++w) {
    for (std::size_t r = 0; r < returns.size(); ++r)
      if (returns[r].name == arguments[w] + "_out") return_of[w] = static_cast<int>(r);
  }
  if (arguments.size() == 1 && return_of[0] < 0 && !returns.empty()) return_of[0] = 0;
  for (std::size_t w = 0; w < arguments.size(); ++w) {
    if (return_of[w] < 0) {
      throw LoweringError{fmt::format("cannot tell which return of {} is the new value of '{}'",
                                      serialized_target(twin), arguments[w])};
    }
  }
  return return_of;
}

}  // namespace

// The in-place op's own outputs: those that alias a written argument are that argument from
// now on; the others move, with their names, to the twin's remaining returns (returned, in order).
std::vector<std::string> Functionalizer::bind_inplace_outputs(const ir::Node& node, const OpSchema& schema,
                                                              const std::vector<Written>& written) {
  std::vector<std::string> moved;
  const auto inplace_returns = schema.returns();
  for (int k = 0; k < node.outputs_size(); ++k) {
    const ir::Argument& output = node.outputs(k);
    const std::string name(single_tensor(output));
    if (name.empty()) {
      if (is_tensor_list(output)) {
        throw LoweringError{fmt::format("node '{}' ({}) returns a tensor list from a write",
                                        fx_node_name(node), node.target())};
      }
      continue;
    }
    std::string aliased;
    if (k < static_cast<int>(inplace_returns.size()) && inplace_returns[static_cast<std::size_t>(k)].aliases_argument >= 0) {
      const auto& argument = schema.arguments()[static_cast<std::size_t>(inplace_returns[static_cast<std::size_t>(k)].aliases_argument)];
      for (const Written& w : written)
        if (w.argument == argument.name) aliased = w.value;
    }
    if (!aliased.empty()) {
      same_as_[name] = canonical(aliased);
    } else {
      moved.push_back(name);
    }
  }
  return moved;
}

// An in-place op becomes its functional twin: the twin reads the current inputs, one return per
// written argument is its new value, and the in-place op's other outputs keep their names.
void Functionalizer::lower_write(const ir::Node& node, const OpSchema& schema) {
  const std::vector<Written> written = written_arguments(node, schema);
  if (written.empty()) {
    keep_unindexed(node);
    return;
  }
  const auto twin = functional_twin_of(schema);
  if (!twin) {
    throw LoweringError{fmt::format(
        "node '{}' writes '{}' with {}, which has no functional twin in the operator table",
        fx_node_name(node), written.front().value, node.target())};
  }
  std::vector<std::string> arguments;
  for (const Written& w : written) arguments.push_back(w.argument);
  const std::vector<int> return_of = twin_return_of(arguments, *twin);
  const std::vector<std::string> moved = bind_inplace_outputs(node, schema, written);

  ir::Node functional;
  functional.set_target(serialized_target(*twin));
  for (const ir::NamedArgument& input : node.inputs()) {
    if (twin->argument_index(input.name()) < 0) continue;  // out= arguments
    ir::NamedArgument* copy = functional.add_inputs();
    *copy = input;
    rewrite_tensor_names(*copy->mutable_arg(), [&](const std::string& v) { return read(v); });
  }
  const std::string stem(twin->base_name());
  const std::string name = names_.fresh(stem);
  functional.set_name(name);
  const auto returns = twin->returns();
  std::vector<std::string> new_values(written.size());
  std::size_t next_moved = 0;
  for (std::size_t r = 0; r < returns.size(); ++r) {
    std::string out;
    for (std::size_t w = 0; w < written.size(); ++w) {
      if (return_of[w] != static_cast<int>(r)) continue;
      out = returns.size() == 1 ? name : names_.fresh("getitem");
      copy_meta(written[w].value, out);
      new_values[w] = out;
    }
    if (out.empty() && next_moved < moved.size()) out = moved[next_moved++];
    if (out.empty()) {
      out = names_.fresh(fmt::format("{}_unused_{}", name, r));
      if (meta(out) == nullptr && returns[r].type == opschema::ValueType::kTensor) {
        throw LoweringError{fmt::format("cannot describe return {} of {} (no tensor metadata)", r,
                                        serialized_target(*twin))};
      }
    }
    functional.add_outputs()->mutable_as_tensor()->set_name(out);
  }
  set_created_from(functional, node, fx_node_name(node));
  nodes_.push_back(std::move(functional));
  for (std::size_t w = 0; w < written.size(); ++w) write(written[w].value, new_values[w], node);
  ++rewritten_;
}

void Functionalizer::lower_custom_write(const ir::Node& node, const OpSchema& schema) {
  AutoFunctionalizedLowering built;
  const std::string error = lower_to_auto_functionalized_v2(
      node, schema, [&](const std::string& v) { return read(v); },
      [&](std::string_view stem) { return names_.fresh(stem); }, built);
  if (!error.empty()) throw LoweringError{error};
  for (const auto& [written, updated] : built.updates) copy_meta(written, updated);
  set_created_from(built.node, node, fx_node_name(node));
  nodes_.push_back(std::move(built.node));
  for (const auto& [written, updated] : built.updates) write(written, updated, node);
  ++rewritten_;
}

bool Functionalizer::is_training_batch_norm(const OpSchema& schema, const ir::Node& node) {
  if (schema.name() != "aten::batch_norm" && schema.name() != "aten::native_batch_norm") return false;
  bool training = false;
  return opschema::node_bool_argument(node, "training", training) && training &&
         (opschema::node_has_tensor_argument(node, "running_mean") ||
          opschema::node_has_tensor_argument(node, "running_var"));
}

// batch_norm(training=True) updates running_mean and running_var without declaring it;
// PyTorch's functionalization spells it _native_batch_norm_legit_functional, whose
// running_mean_out / running_var_out returns are the new statistics.
void Functionalizer::lower_batch_norm(const ir::Node& node, const OpSchema& schema) {
  const std::string mean(single_tensor(find_input(node, "running_mean")->arg()));
  const ir::NamedArgument* var_input = find_input(node, "running_var");
  const std::string var = var_input ? std::string(single_tensor(var_input->arg())) : "";
  if (mean.empty() || var.empty()) {
    throw LoweringError{fmt::format(
        "node '{}' ({}) trains with only one of running_mean and running_var", fx_node_name(node),
        node.target())};
  }
  ir::Node functional;
  functional.set_target("torch.ops.aten._native_batch_norm_legit_functional.default");
  for (std::string_view argument :
       {"input", "weight", "bias", "running_mean", "running_var", "training", "momentum", "eps"}) {
    ir::NamedArgument* copy = functional.add_inputs();
    if (const ir::NamedArgument* input = find_input(node, argument)) {
      *copy = *input;
      rewrite_tensor_names(*copy->mutable_arg(), [&](const std::string& v) { return read(v); });
    } else {
      copy->set_name(std::string(argument));
      copy->mutable_arg()->set_as_none(true);
      copy->set_kind(1);
    }
  }
  const std::string name = names_.fresh("_native_batch_norm_legit_functional");
  functional.set_name(name);
  // Returns: output, save_mean, save_rstd, running_mean_out, running_var_out. The first
  // one (three, for native_batch_norm) keep the names the original node gave them.
  std::vector<std::string> outputs;
  for (const ir::Argument& output : node.outputs()) outputs.emplace_back(single_tensor(output));
  const bool native = schema.name() == "aten::native_batch_norm";
  for (int r = 0; r < 3; ++r) {
    std::string out = native && r < static_cast<int>(outputs.size()) ? outputs[static_cast<std::size_t>(r)] : "";
    if (r == 0 && !outputs.empty()) out = outputs[0];
    if (out.empty()) {
      out = names_.fresh(fmt::format("{}_unused_{}", name, r));
      if (r > 0) copy_meta(mean, out);  // per-channel statistics, shaped like running_mean
    }
    functional.add_outputs()->mutable_as_tensor()->set_name(out);
  }
  const std::string new_mean = names_.fresh("getitem");
  const std::string new_var = names_.fresh("getitem");
  copy_meta(mean, new_mean);
  copy_meta(var, new_var);
  functional.add_outputs()->mutable_as_tensor()->set_name(new_mean);
  functional.add_outputs()->mutable_as_tensor()->set_name(new_var);
  set_created_from(functional, node, fx_node_name(node));
  nodes_.push_back(std::move(functional));
  write(mean, new_mean, node);
  write(var, new_var, node);
  ++rewritten_;
}

}  // namespace pt2lint::lowering
