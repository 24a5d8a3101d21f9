#include "analysis/state/initial_state.h"

#include <fmt/format.h>

#include <algorithm>

#include "analysis/dataflow/effective_mutations.h"
#include "analysis/dataflow/node_ops.h"
#include "analysis/program_index.h"

namespace pt2lint {
namespace {

// "torch.ops.aten.copy_.default" -> "copy_".
std::string_view op_base_name(std::string_view target) {
  constexpr std::string_view kAten = "torch.ops.aten.";
  if (!target.starts_with(kAten)) return {};
  target.remove_prefix(kAten.size());
  return target.substr(0, target.find('.'));
}

// In-place ops whose result does not depend on what `self` held: a first use by one of them,
// with the state itself as `self`, is a full overwrite.
bool overwrites_self_in_place(std::string_view base) {
  return base == "copy_" || base == "fill_" || base == "zero_";
}

// Functional ops that read only `self`'s shape and dtype, never its values (a functionalized
// full overwrite is copy(self, src); zeros_like and friends make new tensors shaped like it).
bool reads_only_metadata_of_self(std::string_view base) {
  return base == "copy" || base == "fill" || base == "zero" || base == "zeros_like" ||
         base == "empty_like" || base == "ones_like" || base == "full_like" || base == "sym_size";
}

std::string describe(const ProgramIndex& index, int node) {
  std::string_view target = index.graph().nodes(node).target();
  if (target.starts_with("torch.ops.")) target.remove_prefix(10);
  return fmt::format("node `{}` ({})", index.node_name(node), target);
}

}  // namespace

InitialStateFact initial_state_fact(const ProgramIndex& index, dataflow::NodeOps& ops,
                                    const dataflow::StateWrite& write) {
  InitialStateFact fact{write.target, write.kind, write.input_spec, InitialValue::kUndecided, -1, {}};
  if (write.placeholder < 0 || write.placeholder >= static_cast<int>(index.placeholder_names().size())) {
    fact.why = "it is not a graph input";
    return fact;
  }
  const std::string_view placeholder = index.placeholder_names()[static_cast<std::size_t>(write.placeholder)];
  const bool returned = std::find(index.output_names().begin(), index.output_names().end(), placeholder) !=
                        index.output_names().end();
  const bool functional = !write.write_backs.empty();  // written back by a mutation output
  const ir::Graph& graph = index.graph();
  for (int user : index.users(placeholder)) {
    const ir::Node& node = graph.nodes(user);
    const std::string_view base = op_base_name(node.target());
    const bool as_self = dataflow::tensor_input(node, "self") == placeholder;
    if (functional && as_self && reads_only_metadata_of_self(base)) continue;
    fact.node = user;
    if (!node.inputs().empty() && ops.schema(user) == nullptr) {
      fact.why = fmt::format("its first use is {}, which pt2lint cannot see into", describe(index, user));
      return fact;
    }
    if (!functional && as_self && overwrites_self_in_place(base)) {
      fact.verdict = InitialValue::kOverwritten;
      fact.why = fmt::format("{} overwrites all of it first", describe(index, user));
      return fact;
    }
    const bool writes = std::find(write.nodes.begin(), write.nodes.end(), user) != write.nodes.end();
    fact.verdict = InitialValue::kDepends;
    fact.why = writes ? fmt::format("{} updates it in place, keeping part of its old value", describe(index, user))
                      : fmt::format("its first use, {}, reads it before any full overwrite", describe(index, user));
    return fact;
  }
  if (returned && functional) {
    fact.verdict = InitialValue::kDepends;
    fact.why = "a graph output returns its old value";
    return fact;
  }
  fact.verdict = functional ? InitialValue::kOverwritten : InitialValue::kUndecided;
  fact.why = functional ? "no node reads its old value; the write-back does not derive from it"
                        : "no node uses it";
  return fact;
}

std::string_view initial_value_key(InitialValue verdict) {
  switch (verdict) {
    case InitialValue::kDepends: return "depends";
    case InitialValue::kOverwritten: return "overwritten";
    case InitialValue::kUndecided: return "undecided";
  }
  return "undecided";
}

std::vector<InitialStateFact> initial_state_facts(const ProgramIndex& index, dataflow::NodeOps& ops,
                                                  dataflow::ValueTracer& tracer) {
  std::vector<InitialStateFact> facts;
  for (const dataflow::StateWrite& write : dataflow::effective_mutations(index, ops, tracer)) {
    if (write.placeholder < 0 || write.placeholder >= static_cast<int>(index.placeholder_names().size())) continue;
    facts.push_back(initial_state_fact(index, ops, write));
  }
  return facts;
}

}  // namespace pt2lint
