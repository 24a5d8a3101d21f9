#include "properties/ir_mutator.h"

#include <algorithm>
#include <string>
#include <vector>

#include "properties/ir_walk.h"

namespace pt2lint::properties {
namespace {

using Rng = std::mt19937_64;

std::size_t pick(Rng& rng, std::size_t n) { return std::uniform_int_distribution<std::size_t>(0, n - 1)(rng); }
bool coin(Rng& rng) { return pick(rng, 2) == 0; }

ir::Program& some_program(ir::ProgramSet& set, Rng& rng) {
  return *set.mutable_programs(static_cast<int>(pick(rng, set.programs_size())));
}
ir::Graph& main_graph(ir::Program& p) { return *p.mutable_program()->mutable_graph_module()->mutable_graph(); }
ir::GraphSignature& signature(ir::Program& p) { return *p.mutable_program()->mutable_graph_module()->mutable_signature(); }

template <class Repeated>
void move_element(Repeated& items, int from, int to) {
  if (from < to) for (int i = from; i < to; ++i) items.SwapElements(i, i + 1);
  else for (int i = from; i > to; --i) items.SwapElements(i, i - 1);
}

std::vector<int> mutation_specs(ir::GraphSignature& sig) {
  std::vector<int> out;
  for (int i = 0; i < sig.output_specs_size(); ++i)
    if (mutation_target(*sig.mutable_output_specs(i)) != nullptr) out.push_back(i);
  return out;
}

// A graph with at least `min_nodes` nodes, subgraphs included; nullptr when none.
ir::Graph* some_graph(ir::Program& p, Rng& rng, int min_nodes) {
  std::vector<ir::Graph*> graphs;
  for (ir::Graph* g : all_graphs(p)) if (g->nodes_size() >= min_nodes) graphs.push_back(g);
  return graphs.empty() ? nullptr : graphs[pick(rng, graphs.size())];
}

// The name a lifting pass gives a nested buffer: `lifted_buf_` plus the FQN with dots as '_'.
std::string mangled(std::string name) {
  std::replace(name.begin(), name.end(), '.', '_');
  return "lifted_buf_" + name;
}

bool retarget(ir::Program& p, Rng& rng) {
  ir::GraphSignature& sig = signature(p);
  const std::vector<int> specs = mutation_specs(sig);
  if (specs.empty()) return false;
  std::string* target = mutation_target(*sig.mutable_output_specs(specs[pick(rng, specs.size())]));
  std::vector<std::string> states;
  for (ir::InputSpec& in : *sig.mutable_input_specs())
    if (std::string* s = input_spec_state(in); s != nullptr && *s != *target) states.push_back(*s);
  *target = states.empty() || coin(rng) ? mangled(*target) : states[pick(rng, states.size())];
  return true;
}

bool swap_targets(ir::Program& p, Rng& rng) {
  ir::GraphSignature& sig = signature(p);
  const std::vector<int> specs = mutation_specs(sig);
  if (specs.size() < 2) return false;
  const std::size_t a = pick(rng, specs.size()), b = (a + 1 + pick(rng, specs.size() - 1)) % specs.size();
  std::swap(*mutation_target(*sig.mutable_output_specs(specs[a])), *mutation_target(*sig.mutable_output_specs(specs[b])));
  return true;
}

bool drop_node(ir::Program& p, Rng& rng) {
  ir::Graph* g = some_graph(p, rng, 1);
  if (g == nullptr) return false;
  g->mutable_nodes()->DeleteSubrange(static_cast<int>(pick(rng, g->nodes_size())), 1);
  return true;
}

bool duplicate_node(ir::Program& p, Rng& rng) {
  ir::Graph* g = some_graph(p, rng, 1);
  if (g == nullptr) return false;
  const int at = static_cast<int>(pick(rng, g->nodes_size()));
  ir::Node copy = g->nodes(at);
  if (coin(rng)) {  // a pass that re-emits a node under fresh names; else the same names twice
    copy.set_name(copy.name() + "_dup");
    for_each_defined(copy, [](std::string& name) { name += "_dup"; });
  }
  *g->add_nodes() = std::move(copy);
  move_element(*g->mutable_nodes(), g->nodes_size() - 1, at + 1);
  return true;
}

bool drop_output(ir::Program& p, Rng& rng) {
  ir::Graph& g = main_graph(p);
  ir::GraphSignature& sig = signature(p);
  const int n = std::max(g.outputs_size(), sig.output_specs_size());
  if (n == 0) return false;
  const int at = static_cast<int>(pick(rng, n));
  const std::size_t which = pick(rng, 3);  // both, the graph output only, the spec only
  if (which != 2 && at < g.outputs_size()) g.mutable_outputs()->DeleteSubrange(at, 1);
  if (which != 1 && at < sig.output_specs_size()) sig.mutable_output_specs()->DeleteSubrange(at, 1);
  return true;
}

bool duplicate_output(ir::Program& p, Rng& rng) {
  ir::Graph& g = main_graph(p);
  ir::GraphSignature& sig = signature(p);
  if (g.outputs_size() == 0 || g.outputs_size() != sig.output_specs_size()) return false;
  const int at = static_cast<int>(pick(rng, g.outputs_size()));
  *g.add_outputs() = g.outputs(at);
  *sig.add_output_specs() = sig.output_specs(at);
  move_element(*g.mutable_outputs(), g.outputs_size() - 1, at + 1);
  move_element(*sig.mutable_output_specs(), sig.output_specs_size() - 1, at + 1);
  return true;
}

// Renames value `from` to `to` in `graph` and its subgraphs, the signature and metadata.
void rename_everywhere(ir::Program& p, const std::string& from, const std::string& to) {
  auto swap_name = [&](std::string& name) { if (name == from) name = to; };
  for (ir::Graph* g : all_graphs(p)) {
    for (ir::Argument& in : *g->mutable_inputs()) for_each_tensor_name(in, swap_name);
    for (ir::Argument& out : *g->mutable_outputs()) for_each_tensor_name(out, swap_name);
    for (ir::Node& node : *g->mutable_nodes()) {
      for_each_read(node, swap_name);
      for_each_defined(node, swap_name);
    }
    for (ir::TensorMetaEntry& e : *g->mutable_tensor_values()) swap_name(*e.mutable_key());
  }
  for (ir::OutputSpec& spec : *signature(p).mutable_output_specs())
    if (std::string* v = output_spec_value(spec)) swap_name(*v);
}

// A name some node of some graph defines, picked at random; null when the pick finds none.
std::string* some_defined_name(ir::Program& p, Rng& rng) {
  ir::Graph* g = some_graph(p, rng, 1);
  if (g == nullptr) return nullptr;
  ir::Node& node = *g->mutable_nodes(static_cast<int>(pick(rng, g->nodes_size())));
  std::vector<std::string*> defined;
  for_each_defined(node, [&](std::string& name) { defined.push_back(&name); });
  if (defined.empty()) return nullptr;
  return defined[pick(rng, defined.size())];
}

bool rename_value(ir::Program& p, Rng& rng) {
  std::string* defined = some_defined_name(p, rng);
  if (defined == nullptr) return false;
  std::string& name = *defined;
  const std::string from = name, to = from + "_renamed";
  if (coin(rng)) rename_everywhere(p, from, to);  // harmless: names do not count
  else name = to;                                 // the definition only: readers dangle
  return true;
}

// Names a hostile file gives (issue 24): each would act on a CI log, a terminal or a review
// comment if a report wrote it raw. Valid UTF-8 only: the readers refuse the rest.
constexpr const char* kHostileNames[] = {
    "x\n::add-mask::secret", "x\r\n::error title=fake::all clean", "x\x1b[2J\x1b[31mred", "x\x07\x08\x7f",
    "x\u2028\u2029y", "x\u0085\u009b31m", "x](javascript:alert(1))", "x`` @everyone <img src=x>",
    "x%%{init: {}}%%|y", "x\t\x0b\x0c|---|",
};

// A value renamed everywhere to a hostile name, or the program given one: names do not count,
// so the findings stay those of the original, and every report must write the name inert.
bool hostile_name(ir::Program& p, Rng& rng) {
  const std::string payload = kHostileNames[pick(rng, std::size(kHostileNames))];
  if (coin(rng)) {
    p.set_name(p.name() + payload);
    return true;
  }
  std::string* defined = some_defined_name(p, rng);
  if (defined == nullptr) return false;
  const std::string from = *defined;
  rename_everywhere(p, from, from + payload);
  return true;
}

ir::TensorMeta* some_tensor_meta(ir::Program& p, Rng& rng) {
  std::vector<ir::TensorMeta*> metas;
  for (ir::Graph* g : all_graphs(p))
    for (ir::TensorMetaEntry& e : *g->mutable_tensor_values()) metas.push_back(e.mutable_value());
  return metas.empty() ? nullptr : metas[pick(rng, metas.size())];
}

bool change_shape(ir::Program& p, Rng& rng) {
  ir::TensorMeta* meta = some_tensor_meta(p, rng);
  if (meta == nullptr) return false;
  const std::size_t how = meta->sizes_size() == 0 ? 0 : pick(rng, 3);
  if (how == 0) meta->add_sizes()->set_as_int(1 + static_cast<std::int64_t>(pick(rng, 4)));
  else if (how == 1) meta->mutable_sizes()->RemoveLast();
  else {
    ir::SymInt& size = *meta->mutable_sizes(static_cast<int>(pick(rng, meta->sizes_size())));
    size.set_as_int(size.has_as_int() ? size.as_int() + 1 : 3);
  }
  return true;
}

bool change_dtype(ir::Program& p, Rng& rng) {
  ir::TensorMeta* meta = some_tensor_meta(p, rng);
  if (meta == nullptr) return false;
  // ScalarType codes of torch/_export/serde/schema.py: 1 uint8 .. 7 float32, 8 float64, ... 13 bfloat16
  meta->set_dtype(1 + (meta->dtype() + static_cast<int>(pick(rng, 12))) % 13);
  return true;
}

bool move_output_spec(ir::Program& p, Rng& rng) {
  ir::Graph& g = main_graph(p);
  ir::GraphSignature& sig = signature(p);
  const int n = sig.output_specs_size();
  if (n < 2) return false;
  const int from = static_cast<int>(pick(rng, n)), to = static_cast<int>(pick(rng, n));
  if (from == to) return false;
  move_element(*sig.mutable_output_specs(), from, to);
  if (coin(rng) && g.outputs_size() == n) move_element(*g.mutable_outputs(), from, to);
  return true;
}

bool insert_view(ir::Program& p, Rng& rng) {
  ir::Graph* g = some_graph(p, rng, 1);
  if (g == nullptr) return false;
  const int at = static_cast<int>(pick(rng, g->nodes_size()));
  const ir::Node& base = g->nodes(at);
  if (base.outputs_size() == 0 || !base.outputs(0).has_as_tensor()) return false;
  const std::string value = base.outputs(0).as_tensor().name(), view = value + "_view";
  ir::Node node;
  const bool alias = coin(rng);
  node.set_target(alias ? "torch.ops.aten.alias.default" : "torch.ops.aten.view.default");
  node.set_name(view);
  ir::NamedArgument* self = node.add_inputs();
  self->set_name("self");
  self->mutable_arg()->mutable_as_tensor()->set_name(value);
  const ir::TensorMeta* meta = nullptr;
  for (const ir::TensorMetaEntry& e : g->tensor_values()) if (e.key() == value) meta = &e.value();
  if (!alias) {
    ir::NamedArgument* size = node.add_inputs();
    size->set_name("size");
    size->mutable_arg()->mutable_as_ints()->add_items(-1);  // flatten: a real view of any tensor
  }
  node.add_outputs()->mutable_as_tensor()->set_name(view);
  if (meta != nullptr) {
    ir::TensorMetaEntry* entry = g->add_tensor_values();
    entry->set_key(view);
    *entry->mutable_value() = *meta;
    if (!alias) {  // the flattened shape, when static
      std::int64_t count = 1;
      bool known = true;
      for (const ir::SymInt& s : meta->sizes()) known = known && s.has_as_int(), count *= s.has_as_int() ? s.as_int() : 1;
      entry->mutable_value()->clear_sizes();
      entry->mutable_value()->clear_strides();
      if (known) entry->mutable_value()->add_sizes()->set_as_int(count);
      else entry->mutable_value()->add_sizes()->mutable_as_expr()->set_expr_str("s0");
      entry->mutable_value()->add_strides()->set_as_int(1);
    }
  }
  *g->add_nodes() = std::move(node);
  move_element(*g->mutable_nodes(), g->nodes_size() - 1, at + 1);
  // One later reader of the value now reads the view.
  std::vector<std::string*> readers;
  for (int i = at + 2; i < g->nodes_size(); ++i)
    for_each_read(*g->mutable_nodes(i), [&](std::string& name) { if (name == value) readers.push_back(&name); });
  for (ir::Argument& out : *g->mutable_outputs())
    for_each_tensor_name(out, [&](std::string& name) { if (name == value) readers.push_back(&name); });
  if (!readers.empty()) *readers[pick(rng, readers.size())] = view;
  return true;
}

// The first subgraph of a higher-order op node of the main graph, and that node's index.
std::pair<int, ir::Graph*> some_subgraph_call(ir::Program& p, Rng& rng) {
  ir::Graph& g = main_graph(p);
  std::vector<std::pair<int, ir::Graph*>> calls;
  for (int i = 0; i < g.nodes_size(); ++i)
    for (ir::NamedArgument& in : *g.mutable_nodes(i)->mutable_inputs())
      if (in.arg().has_as_graph()) calls.emplace_back(i, in.mutable_arg()->mutable_as_graph()->mutable_graph());
  return calls.empty() ? std::pair<int, ir::Graph*>{-1, nullptr} : calls[pick(rng, calls.size())];
}

bool move_into_subgraph(ir::Program& p, Rng& rng) {
  auto [call, sub] = some_subgraph_call(p, rng);
  if (sub == nullptr || call == 0) return false;
  ir::Graph& g = main_graph(p);
  const int from = static_cast<int>(pick(rng, call));
  *sub->add_nodes() = g.nodes(from);
  move_element(*sub->mutable_nodes(), sub->nodes_size() - 1, static_cast<int>(pick(rng, sub->nodes_size())));
  g.mutable_nodes()->DeleteSubrange(from, 1);
  return true;
}

bool move_out_of_subgraph(ir::Program& p, Rng& rng) {
  auto [call, sub] = some_subgraph_call(p, rng);
  if (sub == nullptr || sub->nodes_size() == 0) return false;
  ir::Graph& g = main_graph(p);
  const int from = static_cast<int>(pick(rng, sub->nodes_size()));
  *g.add_nodes() = sub->nodes(from);
  sub->mutable_nodes()->DeleteSubrange(from, 1);
  move_element(*g.mutable_nodes(), g.nodes_size() - 1, coin(rng) ? call : call + 1);
  return true;
}

bool unknown_schema_op(ir::Program& p, Rng& rng) {
  ir::Graph* g = some_graph(p, rng, 1);
  if (g == nullptr) return false;
  g->mutable_nodes(static_cast<int>(pick(rng, g->nodes_size())))->set_target("torch.ops.fuzzlib.opaque.default");
  return true;
}

// triton_kernel_wrapper_mutation(kernel_idx=0, kwargs={in_0: ..., ...}): the node's inputs move
// into a dict, the shape that hid state from the dataflow before issue 22.
bool triton_launch(ir::Program& p, Rng& rng) {
  ir::Graph* g = some_graph(p, rng, 1);
  if (g == nullptr) return false;
  ir::Node& node = *g->mutable_nodes(static_cast<int>(pick(rng, g->nodes_size())));
  ir::Argument kwargs;
  for (int i = 0; i < node.inputs_size(); ++i) {
    if (node.inputs(i).arg().has_as_graph()) continue;
    ir::StringToArgumentEntry* entry = kwargs.mutable_as_string_to_argument()->add_items();
    entry->set_key("in_" + std::to_string(i));
    *entry->mutable_value() = node.inputs(i).arg();
  }
  node.clear_inputs();
  ir::NamedArgument* idx = node.add_inputs();
  idx->set_name("kernel_idx");
  idx->mutable_arg()->set_as_int(0);
  ir::NamedArgument* kw = node.add_inputs();
  kw->set_name("kwargs");
  *kw->mutable_arg() = std::move(kwargs);
  node.set_target("torch.ops.higher_order.triton_kernel_wrapper_mutation");
  return true;
}

bool hide_behind_unknown_op_at_random(ir::Program& p, Rng& rng) {
  const ir::Graph& g = main_graph(p);
  if (g.nodes_size() == 0) return false;
  const auto path = static_cast<UnknownOpPath>(pick(rng, static_cast<std::size_t>(UnknownOpPath::kCount)));
  return hide_behind_unknown_op(p, static_cast<int>(pick(rng, g.nodes_size())), path);
}

constexpr std::string_view kOpaqueTarget = "torch.ops.fuzzlib.opaque.default";

// The distinct tensors a node reads outside its graph arguments; empty when it has a graph.
std::vector<std::string> tensor_inputs(const ir::Node& node) {
  std::vector<std::string> out;
  for (const ir::NamedArgument& input : node.inputs()) {
    if (input.arg().has_as_graph()) return {};
    ir::Argument copy = input.arg();
    for_each_tensor_name(copy, [&](std::string& name) {
      if (std::find(out.begin(), out.end(), name) == out.end()) out.push_back(name);
    });
  }
  return out;
}

const ir::TensorMeta* meta_in(const ir::Graph& g, const std::string& name) {
  for (const ir::TensorMetaEntry& e : g.tensor_values()) if (e.key() == name) return &e.value();
  return nullptr;
}

void add_meta(ir::Graph& g, const std::string& name, const ir::TensorMeta* meta) {
  if (meta == nullptr) return;
  ir::TensorMetaEntry* entry = g.add_tensor_values();
  entry->set_key(name);
  *entry->mutable_value() = *meta;
}

void add_tensor_input(ir::Node& node, const std::string& name, const std::string& value) {
  ir::NamedArgument* input = node.add_inputs();
  input->set_name(name);
  input->mutable_arg()->mutable_as_tensor()->set_name(value);
}

// wrap_with_set_grad_enabled(False, region, *values) whose region hands its inputs to `inner`
// (a node reading `values` by name), returning `inner`'s tensor outputs; the call defines
// `outputs` (the names the replaced node defined); `caller` holds the values' metadata.
ir::Node region_call(const ir::Node& inner, const std::vector<std::string>& values,
                     const google::protobuf::RepeatedPtrField<ir::Argument>& outputs, const ir::Graph& caller,
                     const std::string& suffix) {
  ir::Node call;
  call.set_target("torch.ops.higher_order.wrap_with_set_grad_enabled");
  call.set_name(inner.name() + "_region" + suffix);
  ir::NamedArgument* enable = call.add_inputs();
  enable->mutable_arg()->set_as_bool(false);
  enable->set_kind(1);
  ir::NamedArgument* graph_input = call.add_inputs();
  graph_input->set_kind(1);
  ir::GraphArgument& graph_arg = *graph_input->mutable_arg()->mutable_as_graph();
  graph_arg.set_name("fuzz_region" + suffix);
  ir::Graph& region = *graph_arg.mutable_graph();
  ir::Node body = inner;
  for (const std::string& value : values) {
    const std::string local = value + "_in" + suffix;
    region.add_inputs()->mutable_as_tensor()->set_name(local);
    add_meta(region, local, meta_in(caller, value));
    for_each_read(body, [&](std::string& name) { if (name == value) name = local; });
  }
  for (ir::Argument& out : *body.mutable_outputs()) {
    if (!out.has_as_tensor()) continue;
    const std::string value = out.as_tensor().name(), local = value + "_out" + suffix;
    add_meta(region, local, meta_in(caller, value));
    out.mutable_as_tensor()->set_name(local);
    region.add_outputs()->mutable_as_tensor()->set_name(local);
  }
  *region.add_nodes() = std::move(body);
  for (const std::string& value : values) {
    ir::NamedArgument* operand = call.add_inputs();
    operand->set_kind(1);
    operand->mutable_arg()->mutable_as_tensor()->set_name(value);
  }
  for (const ir::Argument& out : outputs)
    if (out.has_as_tensor()) *call.add_outputs() = out;
  return call;
}

}  // namespace

std::string_view unknown_op_path_name(UnknownOpPath path) {
  switch (path) {
    case UnknownOpPath::kDirect: return "direct";
    case UnknownOpPath::kList: return "list";
    case UnknownOpPath::kKwargs: return "kwargs";
    case UnknownOpPath::kRegion: return "region";
    case UnknownOpPath::kNestedRegion: return "nested-region";
    case UnknownOpPath::kCount: break;
  }
  return "?";
}

bool hide_behind_unknown_op(ir::Program& p, int at, UnknownOpPath path) {
  ir::Graph& g = main_graph(p);
  if (at < 0 || at >= g.nodes_size()) return false;
  const ir::Node& node = g.nodes(at);
  const std::vector<std::string> values = tensor_inputs(node);
  if (values.empty()) return false;
  ir::Node opaque;
  opaque.set_target(std::string(kOpaqueTarget));
  opaque.set_name(node.name().empty() ? values.front() + "_opaque" : node.name());
  *opaque.mutable_outputs() = node.outputs();
  if (path == UnknownOpPath::kList) {
    ir::NamedArgument* list = opaque.add_inputs();
    list->set_name("tensors");
    for (const std::string& value : values) list->mutable_arg()->mutable_as_tensors()->add_items()->set_name(value);
  } else if (path == UnknownOpPath::kKwargs) {
    ir::NamedArgument* kwargs = opaque.add_inputs();
    kwargs->set_name("kwargs");
    for (std::size_t i = 0; i < values.size(); ++i) {
      ir::StringToArgumentEntry* entry = kwargs->mutable_arg()->mutable_as_string_to_argument()->add_items();
      entry->set_key("in_" + std::to_string(i));
      entry->mutable_value()->mutable_as_tensor()->set_name(values[i]);
    }
  } else {
    for (std::size_t i = 0; i < values.size(); ++i) add_tensor_input(opaque, "in_" + std::to_string(i), values[i]);
  }
  ir::Node replacement = std::move(opaque);
  if (path == UnknownOpPath::kRegion || path == UnknownOpPath::kNestedRegion) {
    const google::protobuf::RepeatedPtrField<ir::Argument> outputs = node.outputs();
    if (path == UnknownOpPath::kNestedRegion) replacement = region_call(replacement, values, outputs, g, "_inner");
    replacement = region_call(replacement, values, outputs, g, "");
  }
  *g.mutable_nodes(at) = std::move(replacement);
  return true;
}

std::string_view mutation_name(Mutation mutation) {
  switch (mutation) {
    case Mutation::kRetargetMutationOutput: return "retarget-mutation-output";
    case Mutation::kSwapMutationTargets: return "swap-mutation-targets";
    case Mutation::kDropNode: return "drop-node";
    case Mutation::kDuplicateNode: return "duplicate-node";
    case Mutation::kDropOutput: return "drop-output";
    case Mutation::kDuplicateOutput: return "duplicate-output";
    case Mutation::kRenameValue: return "rename-value";
    case Mutation::kChangeShape: return "change-shape";
    case Mutation::kChangeDtype: return "change-dtype";
    case Mutation::kMoveOutputSpec: return "move-output-spec";
    case Mutation::kInsertView: return "insert-view";
    case Mutation::kMoveNodeIntoSubgraph: return "move-node-into-subgraph";
    case Mutation::kMoveNodeOutOfSubgraph: return "move-node-out-of-subgraph";
    case Mutation::kUnknownSchemaOp: return "unknown-schema-op";
    case Mutation::kTritonLaunch: return "triton-launch";
    case Mutation::kHostileName: return "hostile-name";
    case Mutation::kHideBehindUnknownOp: return "hide-behind-unknown-op";
    case Mutation::kCount: break;
  }
  return "?";
}

namespace {

// Applies `mutation` at a random place of `set`; false when it has nowhere to apply.
bool apply_mutation(ir::ProgramSet& set, Mutation mutation, Rng& rng) {
  if (set.programs_size() == 0) return false;
  ir::Program& p = some_program(set, rng);
  switch (mutation) {
    case Mutation::kRetargetMutationOutput: return retarget(p, rng);
    case Mutation::kSwapMutationTargets: return swap_targets(p, rng);
    case Mutation::kDropNode: return drop_node(p, rng);
    case Mutation::kDuplicateNode: return duplicate_node(p, rng);
    case Mutation::kDropOutput: return drop_output(p, rng);
    case Mutation::kDuplicateOutput: return duplicate_output(p, rng);
    case Mutation::kRenameValue: return rename_value(p, rng);
    case Mutation::kChangeShape: return change_shape(p, rng);
    case Mutation::kChangeDtype: return change_dtype(p, rng);
    case Mutation::kMoveOutputSpec: return move_output_spec(p, rng);
    case Mutation::kInsertView: return insert_view(p, rng);
    case Mutation::kMoveNodeIntoSubgraph: return move_into_subgraph(p, rng);
    case Mutation::kMoveNodeOutOfSubgraph: return move_out_of_subgraph(p, rng);
    case Mutation::kUnknownSchemaOp: return unknown_schema_op(p, rng);
    case Mutation::kTritonLaunch: return triton_launch(p, rng);
    case Mutation::kHostileName: return hostile_name(p, rng);
    case Mutation::kHideBehindUnknownOp: return hide_behind_unknown_op_at_random(p, rng);
    case Mutation::kCount: break;
  }
  return false;
}

}  // namespace

std::optional<Mutation> mutate(ir::ProgramSet& set, Rng& rng) {
  for (int attempt = 0; attempt < 8; ++attempt) {
    const auto kind = static_cast<Mutation>(pick(rng, static_cast<std::size_t>(Mutation::kCount)));
    if (apply_mutation(set, kind, rng)) return kind;
  }
  return std::nullopt;
}

}  // namespace pt2lint::properties
