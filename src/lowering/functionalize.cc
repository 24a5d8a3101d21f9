#include "lowering/functionalize.h"

#include <algorithm>
#include <deque>
#include <optional>
#include <unordered_map>
#include <unordered_set>
#include <utility>
#include <vector>

#include <fmt/format.h>

#include "analysis/opschema/op_schema.h"
#include "analysis/opschema/undeclared_writes.h"
#include "analysis/program_index.h"
#include "lowering/argument_values.h"
#include "lowering/auto_functionalize.h"
#include "lowering/effect_tokens.h"
#include "lowering/name_allocator.h"
#include "lowering/provenance.h"
#include "lowering/subgraph_body.h"
#include "lowering/view_ops.h"
#include "lowering/view_write_back.h"

namespace pt2lint::lowering {
namespace {

using opschema::OpSchema;

struct LoweringError {
  std::string message;
};

std::optional<OpSchema> schema_of(std::string_view target) {
  auto name = opschema::parse_serialized_target(target);
  return name ? opschema::find_schema(*name) : std::nullopt;
}

std::string serialized_target(const OpSchema& schema) {
  return "torch.ops." + schema.provenance_target();
}

std::string node_name(const ir::Node& node) {
  if (node.has_name() && !node.name().empty()) return node.name();
  std::string first;
  for_each_output_tensor(node, [&](const std::string& name) {
    if (first.empty()) first = name;
  });
  return first;
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

bool same_sizes(const ir::TensorMeta& a, const ir::TensorMeta& b) {
  if (a.sizes_size() != b.sizes_size()) return false;
  for (int i = 0; i < a.sizes_size(); ++i) {
    if (a.sizes(i).SerializeAsString() != b.sizes(i).SerializeAsString()) return false;
  }
  return true;
}

bool same_strides(const ir::TensorMeta& a, const ir::TensorMeta& b) {
  if (a.strides_size() != b.strides_size()) return false;
  for (int i = 0; i < a.strides_size(); ++i) {
    if (a.strides(i).SerializeAsString() != b.strides(i).SerializeAsString()) return false;
  }
  return true;
}

// Row-major contiguous, judged only when every size and stride is static.
bool is_contiguous(const ir::TensorMeta& meta) {
  if (meta.sizes_size() != meta.strides_size()) return false;
  std::int64_t expected = 1;
  for (int i = meta.sizes_size() - 1; i >= 0; --i) {
    if (!meta.sizes(i).has_as_int() || !meta.strides(i).has_as_int()) return false;
    const std::int64_t size = meta.sizes(i).as_int();
    if (size != 1 && meta.strides(i).as_int() != expected) return false;
    expected *= size;
  }
  return true;
}

class Functionalizer {
 public:
  Functionalizer(const ir::ExportedProgram& program, const opschema::SchemaCatalog* schemas)
      : program_(program), graph_(program.graph_module().graph()), schemas_(schemas) {
    for (const ir::TensorMetaEntry& entry : graph_.tensor_values()) {
      meta_.emplace(entry.key(), entry.value());
      names_.reserve(entry.key());
    }
    for (const auto& entry : graph_.sym_int_values()) names_.reserve(entry.key());
    for (const auto& entry : graph_.sym_bool_values()) names_.reserve(entry.key());
    for (const auto& entry : graph_.sym_float_values()) names_.reserve(entry.key());
    for (const auto& entry : graph_.custom_obj_values()) names_.reserve(entry.key());
    for (const ir::Argument& input : graph_.inputs()) {
      std::string_view name = argument_value_name(input);
      if (!name.empty()) names_.reserve(name);
    }
    for (const ir::Node& node : graph_.nodes()) {
      if (node.has_name()) names_.reserve(node.name());
      for_each_output_tensor(node, [&](const std::string& name) { names_.reserve(name); });
      for (const ir::Argument& output : node.outputs()) {
        std::vector<std::string_view> values;
        collect_value_names(output, values);
        for (std::string_view value : values) names_.reserve(value);
      }
    }
  }

  // Throws LoweringError.
  ir::ExportedProgram run() {
    for (int i = 0; i < graph_.nodes_size(); ++i) process(i);
    ir::ExportedProgram out = program_;
    ir::GraphModule& module = *out.mutable_graph_module();
    assemble_outputs(module);
    rebuild_graph(*module.mutable_graph());
    rename_call_graph(module);
    out.clear_verifiers();
    out.add_verifiers("ATEN");
    out.clear_dialect();
    return out;
  }

  int rewritten() const { return rewritten_; }

 private:
  // ---- value state

  // Both walks stop after as many steps as the map has entries, a second line of defence:
  // refuse_view_cycle keeps cycles out of views_, and a broken program that still makes one
  // fails self_check, so where the walk stops does not matter.
  std::string canonical(std::string value) const {
    std::size_t steps = 0;
    for (auto it = same_as_.find(value); it != same_as_.end() && steps++ <= same_as_.size(); it = same_as_.find(value))
      value = it->second;
    return value;
  }

  std::string base_of(std::string value) const {
    std::size_t steps = 0;
    for (auto it = views_.find(value); it != views_.end() && steps++ <= views_.size(); it = views_.find(value))
      value = it->second.parent;
    return value;
  }

  // A view of its own view exists only in a broken program (one that reads a value before
  // defining it); every walk to its base would be endless, so it is refused.
  void refuse_view_cycle(const std::string& view, const std::string& parent, const ir::Node& node) const {
    std::string at = parent;
    for (std::size_t steps = 0; steps <= views_.size(); ++steps) {
      if (at == view) {
        throw LoweringError{fmt::format("node '{}' makes '{}' a view of itself through '{}': the program reads a "
                                        "value before it is defined",
                                        node_name(node), view, parent)};
      }
      auto it = views_.find(at);
      if (it == views_.end()) return;
      at = it->second.parent;
    }
  }

  int writes_to(const std::string& base) const {
    auto it = writes_.find(base);
    return it == writes_.end() ? 0 : it->second;
  }

  // The name that holds `value` now: itself until its storage is written, then the latest
  // functional value, regenerating a view of an updated base where one is read.
  std::string read(const std::string& value) {
    const std::string c = canonical(value);
    const std::string base = base_of(c);
    const int version = writes_to(base);
    if (version == 0) return c;
    auto seen = seen_.find(c);
    if (seen != seen_.end() && seen->second.version == version) return seen->second.current;
    const auto view = views_.find(c);
    if (view == views_.end()) return seen_.at(c).current;  // a written base is always seen
    if (view->second.node == nullptr) {
      throw LoweringError{fmt::format(
          "'{}' is one of several views that node '{}' returns, and it is read after '{}' was "
          "written; {}",
          c, view->second.producer, base, view->second.why_not)};
    }
    const ir::Node& original = *view->second.node;
    ir::Node regenerated = original;
    for (ir::NamedArgument& input : *regenerated.mutable_inputs())
      rewrite_tensor_names(*input.mutable_arg(), [&](const std::string& v) { return read(v); });
    const auto schema = schema_of(original.target());
    const std::string out = names_.fresh(schema ? std::string(schema->base_name()) : c);
    regenerated.set_name(out);
    regenerated.mutable_outputs(0)->mutable_as_tensor()->set_name(out);
    set_created_from(regenerated, original, node_name(original));
    copy_meta(c, out);
    nodes_.push_back(std::move(regenerated));
    seen_[c] = {out, version};
    return out;
  }

  // Records that `target` (a value name) now holds `new_value`, carrying the write through
  // every view between it and its base. `cause` is the writing node, for provenance.
  void write(const std::string& target, const std::string& new_value, const ir::Node& cause) {
    const std::string c = canonical(target);
    if (call_views_.count(c)) {
      throw LoweringError{fmt::format(
          "node '{}' writes '{}', a view of an operand that a higher-order op returned; the reference "
          "lowering cannot carry the write back through the call", node_name(cause), c)};
    }
    const auto view = views_.find(c);
    if (view == views_.end()) {
      const int version = ++writes_[c];
      seen_[c] = {new_value, version};
      return;
    }
    const ViewOf of = view->second;
    if (of.node == nullptr) {
      throw LoweringError{fmt::format(
          "node '{}' writes '{}', one of several views that node '{}' returns; pt2lint's "
          "reference lowering cannot carry such a write back to '{}': {}",
          node_name(cause), c, of.producer, base_of(c), of.why_not)};
    }
    const ir::Node& view_node = *of.node;
    const std::string parent_now = read(of.parent);
    const auto schema = schema_of(view_node.target());
    const ViewWriteBack plan =
        plan_view_write_back(view_node, schema ? schema->name() : "", schema ? schema->overload() : "",
                             parent_now, new_value, meta(of.parent), meta(c));
    std::string parent_new;
    switch (plan.kind) {
      case ViewWriteBack::Kind::kIdentity: parent_new = new_value; break;
      case ViewWriteBack::Kind::kNode: {
        for (const PlannedNode& step : plan.nodes) {
          ir::Node scatter;
          scatter.set_target(step.target);
          for (const ir::NamedArgument& input : step.inputs) {
            ir::NamedArgument* copy = scatter.add_inputs();
            *copy = input;
            if (copy->arg().has_as_tensor() && copy->arg().as_tensor().name() == kPreviousValue)
              copy->mutable_arg()->mutable_as_tensor()->set_name(parent_new);
          }
          parent_new = names_.fresh(step.stem);
          scatter.add_outputs()->mutable_as_tensor()->set_name(parent_new);
          scatter.set_name(parent_new);
          set_created_from(scatter, cause, node_name(cause));
          copy_meta(of.parent, parent_new);
          if (!step.sizes.empty()) set_contiguous_sizes(parent_new, step.sizes);
          nodes_.push_back(std::move(scatter));
        }
        break;
      }
      case ViewWriteBack::Kind::kUnsupported:
        throw LoweringError{fmt::format(
            "node '{}' writes '{}', a view made by node '{}' ({}); {}", node_name(cause), c,
            node_name(view_node), view_node.target(), plan.reason)};
    }
    write(of.parent, parent_new, cause);
    seen_[c] = {new_value, writes_to(base_of(c))};
  }

  const ir::TensorMeta* meta(const std::string& value) const {
    auto it = meta_.find(value);
    return it == meta_.end() ? nullptr : &it->second;
  }

  // An intermediate value of a view write-back: the parent's dtype and device, its own sizes.
  void set_contiguous_sizes(const std::string& value, const std::vector<std::int64_t>& sizes) {
    ir::TensorMeta& m = meta_[value];
    m.clear_sizes();
    m.clear_strides();
    std::vector<std::int64_t> strides(sizes.size(), 1);
    for (std::size_t i = sizes.size(); i-- > 1;) strides[i - 1] = strides[i] * sizes[i];
    for (std::size_t i = 0; i < sizes.size(); ++i) {
      m.add_sizes()->set_as_int(sizes[i]);
      m.add_strides()->set_as_int(strides[i]);
    }
  }

  void copy_meta(const std::string& from, const std::string& to) {
    if (const ir::TensorMeta* m = meta(from)) meta_[to] = *m;
  }

  // ---- nodes

  void process(int index) {
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
          node_name(node), node.target(), undeclared)};
    }
    if (schema->is_mutable()) {
      lower_write(node, *schema);
      return;
    }
    keep(index, &*schema);
  }

  // A higher-order op: its subgraphs are functionalized (or refused) by subgraph_body.cc.
  void lower_call(const ir::Node& node) {
    CallerValues caller{[&](const std::string& v) { return read(v); },
                        [&](std::string_view stem) { return names_.fresh(stem); },
                        [&](const std::string& from, const std::string& to) { copy_meta(from, to); }};
    LoweredCall call = lower_subgraph_call(node, caller);
    if (!call.error.empty()) throw LoweringError{call.error};
    nodes_.push_back(std::move(call.node));
    for (const auto& [value, now] : call.writes) write(value, now, node);
    // An output that is the operand itself reads (and writes) the operand from now on.
    for (const auto& [out, value] : call.same_as) same_as_[out] = canonical(value);
    for (const std::string& out : call.view_outputs) call_views_.insert(out);
    rewritten_ += call.rewritten;
  }

  void keep(int index, const OpSchema* schema) {
    const ir::Node& node = graph_.nodes(index);
    ir::Node copy = node;
    for (ir::NamedArgument& input : *copy.mutable_inputs())
      rewrite_tensor_names(*input.mutable_arg(), [&](const std::string& v) { return read(v); });
    nodes_.push_back(std::move(copy));
    if (schema != nullptr) record_views(index, *schema);
  }

  // Outputs that alias an input (views, and ops that returned their input unchanged) share
  // its storage: a later write to either must be seen through the other.
  void record_views(int index, const OpSchema& schema) {
    const ir::Node& node = graph_.nodes(index);
    const auto returns = schema.returns();
    const auto arguments = schema.arguments();
    for (int k = 0; k < node.outputs_size() && k < static_cast<int>(returns.size()); ++k) {
      const opschema::ReturnRecord& r = returns[static_cast<std::size_t>(k)];
      if (r.writes || r.aliases_argument < 0) continue;
      const ir::NamedArgument* input = find_input(node, arguments[static_cast<std::size_t>(r.aliases_argument)].name);
      if (input == nullptr) continue;
      const std::string source(single_tensor(input->arg()));
      if (source.empty()) continue;
      const ir::Argument& output = node.outputs(k);
      const std::string parent = canonical(source);
      const int version = writes_to(base_of(parent));
      if (output.has_as_tensor()) {
        const std::string& out = output.as_tensor().name();
        if (may_return_input(schema.name()) && !returns_input_unchanged(schema, node, source, out)) continue;
        refuse_view_cycle(out, parent, node);
        views_[out] = {parent, &node, node_name(node), {}};
        seen_[out] = {out, version};
      } else if (output.has_as_tensors()) {
        record_element_views(node, schema, parent, version, output.as_tensors());
      }
    }
  }

  // split, chunk, unbind, ...: each element is recorded as the single slice or select it is,
  // so a write to it is carried back (and a read after a write regenerated) like any view.
  void record_element_views(const ir::Node& node, const OpSchema& schema, const std::string& parent,
                            int version, const ir::TensorArgumentList& elements) {
    std::vector<const ir::TensorMeta*> metas;
    for (const ir::TensorArgument& element : elements.items()) metas.push_back(meta(element.name()));
    const ViewLoweringRule rule = view_lowering(schema);
    for (int k = 0; k < elements.items_size(); ++k) {
      const std::string& name = elements.items(k).name();
      ViewOf of{parent, nullptr, node_name(node), rule.reason};
      if (rule.kind == ViewLowering::kElementScatter) {
        std::optional<ir::Node> view = element_view(node, schema.name(), k, metas, meta(parent), of.why_not);
        if (view) {
          view->set_name(name);
          view->add_outputs()->mutable_as_tensor()->set_name(name);
          *view->mutable_metadata() = node.metadata();
          of.node = &element_views_.emplace_back(std::move(*view));
        }
      }
      refuse_view_cycle(name, parent, node);
      views_[name] = std::move(of);
      seen_[name] = {name, version};
    }
  }

  // `to`, `contiguous`, `type_as` and `reshape` alias their input only when they convert
  // nothing; the tensor metadata says whether they did.
  bool returns_input_unchanged(const OpSchema& schema, const ir::Node& node, const std::string& in,
                               const std::string& out) const {
    if (schema.name() == "aten::alias") return true;
    const ir::TensorMeta* a = meta(in);
    const ir::TensorMeta* b = meta(out);
    if (a == nullptr || b == nullptr) return false;
    if (schema.name() == "aten::reshape" || schema.name() == "aten::reshape_as") return is_contiguous(*a);
    if (const ir::NamedArgument* copy = find_input(node, "copy"); copy && copy->arg().has_as_bool() &&
                                                                   copy->arg().as_bool())
      return false;
    return a->dtype() == b->dtype() && a->device().SerializeAsString() == b->device().SerializeAsString() &&
           same_sizes(*a, *b) && same_strides(*a, *b);
  }

  void lower_write(const ir::Node& node, const OpSchema& schema) {
    struct Written {
      std::string argument;
      std::string value;
    };
    std::vector<Written> written;
    for (const opschema::ArgumentRecord& argument : schema.arguments()) {
      if (!argument.writes) continue;
      const ir::NamedArgument* input = find_input(node, argument.name);
      if (input == nullptr) continue;
      if (is_tensor_list(input->arg())) {
        throw LoweringError{fmt::format(
            "node '{}' ({}) writes the tensor list '{}'; the reference lowering functionalizes "
            "writes to single tensors only",
            node_name(node), node.target(), argument.name)};
      }
      const std::string value(single_tensor(input->arg()));
      if (!value.empty()) written.push_back({std::string(argument.name), value});
    }
    if (written.empty()) {
      keep_unindexed(node);
      return;
    }
    const auto twin = functional_twin_of(schema);
    if (!twin) {
      throw LoweringError{fmt::format(
          "node '{}' writes '{}' with {}, which has no functional twin in the operator table",
          node_name(node), written.front().value, node.target())};
    }

    // Which return of the twin is the new value of each written argument: `X_out` by name,
    // else the only return of a single-write op (`add_` -> `add`).
    const auto returns = twin->returns();
    std::vector<int> return_of(written.size(), -1);
    for (std::size_t w = 0; w < written.size(); ++w) {
      for (std::size_t r = 0; r < returns.size(); ++r)
        if (returns[r].name == written[w].argument + "_out") return_of[w] = static_cast<int>(r);
    }
    if (written.size() == 1 && return_of[0] < 0 && !returns.empty()) return_of[0] = 0;
    for (std::size_t w = 0; w < written.size(); ++w) {
      if (return_of[w] < 0) {
        throw LoweringError{fmt::format("cannot tell which return of {} is the new value of '{}'",
                                        serialized_target(*twin), written[w].argument)};
      }
    }

    // The in-place op's own outputs: those that alias a written argument are that argument
    // from now on; the others move, with their names, to the twin's remaining returns.
    std::vector<std::string> moved;
    const auto inplace_returns = schema.returns();
    for (int k = 0; k < node.outputs_size(); ++k) {
      const ir::Argument& output = node.outputs(k);
      const std::string name(single_tensor(output));
      if (name.empty()) {
        if (is_tensor_list(output)) {
          throw LoweringError{fmt::format("node '{}' ({}) returns a tensor list from a write",
                                          node_name(node), node.target())};
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
    set_created_from(functional, node, node_name(node));
    nodes_.push_back(std::move(functional));
    for (std::size_t w = 0; w < written.size(); ++w) write(written[w].value, new_values[w], node);
    ++rewritten_;
  }

  void lower_custom_write(const ir::Node& node, const OpSchema& schema) {
    AutoFunctionalizedLowering built;
    const std::string error = lower_to_auto_functionalized_v2(
        node, schema, [&](const std::string& v) { return read(v); },
        [&](std::string_view stem) { return names_.fresh(stem); }, built);
    if (!error.empty()) throw LoweringError{error};
    for (const auto& [written, updated] : built.updates) copy_meta(written, updated);
    set_created_from(built.node, node, node_name(node));
    nodes_.push_back(std::move(built.node));
    for (const auto& [written, updated] : built.updates) write(written, updated, node);
    ++rewritten_;
  }

  void keep_unindexed(const ir::Node& node) {
    ir::Node copy = node;
    for (ir::NamedArgument& input : *copy.mutable_inputs())
      rewrite_tensor_names(*input.mutable_arg(), [&](const std::string& v) { return read(v); });
    nodes_.push_back(std::move(copy));
  }

  static bool is_training_batch_norm(const OpSchema& schema, const ir::Node& node) {
    if (schema.name() != "aten::batch_norm" && schema.name() != "aten::native_batch_norm") return false;
    bool training = false;
    return opschema::node_bool_argument(node, "training", training) && training &&
           (opschema::node_has_tensor_argument(node, "running_mean") ||
            opschema::node_has_tensor_argument(node, "running_var"));
  }

  // batch_norm(training=True) updates running_mean and running_var without declaring it;
  // PyTorch's functionalization spells it _native_batch_norm_legit_functional, whose
  // running_mean_out / running_var_out returns are the new statistics.
  void lower_batch_norm(const ir::Node& node, const OpSchema& schema) {
    const std::string mean(single_tensor(find_input(node, "running_mean")->arg()));
    const ir::NamedArgument* var_input = find_input(node, "running_var");
    const std::string var = var_input ? std::string(single_tensor(var_input->arg())) : "";
    if (mean.empty() || var.empty()) {
      throw LoweringError{fmt::format(
          "node '{}' ({}) trains with only one of running_mean and running_var", node_name(node),
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
    set_created_from(functional, node, node_name(node));
    nodes_.push_back(std::move(functional));
    write(mean, new_mean, node);
    write(var, new_var, node);
    ++rewritten_;
  }

  // ---- outputs and signature

  void assemble_outputs(ir::GraphModule& module) {
    const ir::GraphSignature& signature = program_.graph_module().signature();
    struct Output {
      ir::OutputSpec spec;
      ir::Argument value;
      int order = 0;  // input-spec index of a mutation's target
    };
    std::vector<Output> tokens, mutations, rest;
    for (int i = 0; i < signature.output_specs_size(); ++i) {
      Output o{signature.output_specs(i), {}, 0};
      if (i < graph_.outputs_size()) o.value = graph_.outputs(i);
      auto reader = [&](const std::string& v) { return read(v); };
      rewrite_tensor_names(o.value, reader);
      rewrite_spec_values(o.spec, reader);
      if (o.spec.has_token()) {
        tokens.push_back(std::move(o));
      } else if (is_mutation_output(o.spec)) {
        const std::string target(output_spec_target(o.spec));
        o.order = input_spec_index_of_target(signature, o.spec);
        if (o.order >= 0) {
          const std::string placeholder(input_spec_arg_name(signature.input_specs(o.order)));
          if (writes_to(placeholder) > 0) {
            throw LoweringError{fmt::format(
                "the program already declares a write-back of '{}' and also writes it in place",
                target)};
          }
        }
        mutations.push_back(std::move(o));
      } else {
        rest.push_back(std::move(o));
      }
    }
    for (int k = 0; k < signature.input_specs_size(); ++k) {
      const ir::InputSpec& in = signature.input_specs(k);
      const std::string placeholder(input_spec_arg_name(in));
      if (placeholder.empty() || writes_to(placeholder) == 0) continue;
      const std::string value = seen_.at(placeholder).current;
      Output o;
      o.order = k;
      o.value.mutable_as_tensor()->set_name(value);
      if (in.has_buffer()) {
        auto* spec = o.spec.mutable_buffer_mutation();
        spec->mutable_arg()->set_name(value);
        spec->set_buffer_name(in.buffer().buffer_name());
      } else if (in.has_parameter()) {
        auto* spec = o.spec.mutable_parameter_mutation();
        spec->mutable_arg()->set_name(value);
        spec->set_parameter_name(in.parameter().parameter_name());
      } else if (in.has_user_input()) {
        auto* spec = o.spec.mutable_user_input_mutation();
        spec->mutable_arg()->set_name(value);
        spec->set_user_input_name(placeholder);
      } else if (in.has_tensor_constant()) {
        throw LoweringError{fmt::format(
            "the program writes the tensor constant '{}'; constants have no write-back, so no "
            "lowering can preserve this write (register the tensor as a buffer)",
            in.tensor_constant().tensor_constant_name())};
      } else {
        throw LoweringError{fmt::format("the program writes its {} input '{}'", input_spec_kind(in),
                                        placeholder)};
      }
      mutations.push_back(std::move(o));
    }
    std::stable_sort(mutations.begin(), mutations.end(),
                     [](const Output& a, const Output& b) { return a.order < b.order; });

    ir::GraphSignature& out_signature = *module.mutable_signature();
    out_signature.clear_output_specs();
    ir::Graph& graph = *module.mutable_graph();
    graph.clear_outputs();
    for (auto* group : {&tokens, &mutations, &rest}) {
      for (Output& o : *group) {
        *out_signature.add_output_specs() = std::move(o.spec);
        *graph.add_outputs() = std::move(o.value);
      }
    }
  }

  static int input_spec_index_of_target(const ir::GraphSignature& signature, const ir::OutputSpec& spec) {
    const std::string_view target = output_spec_target(spec);
    for (int k = 0; k < signature.input_specs_size(); ++k) {
      const ir::InputSpec& in = signature.input_specs(k);
      if ((spec.has_buffer_mutation() && in.has_buffer() && in.buffer().buffer_name() == target) ||
          (spec.has_parameter_mutation() && in.has_parameter() && in.parameter().parameter_name() == target) ||
          (spec.has_user_input_mutation() && in.has_user_input() && input_spec_arg_name(in) == target))
        return k;
    }
    return -1;
  }

  static void rewrite_spec_values(ir::OutputSpec& spec,
                                  const std::function<std::string(const std::string&)>& rename) {
    auto tensor = [&](ir::TensorArgument* arg) { arg->set_name(rename(arg->name())); };
    switch (spec.kind_case()) {
      case ir::OutputSpec::kUserOutput: rewrite_tensor_names(*spec.mutable_user_output()->mutable_arg(), rename); break;
      case ir::OutputSpec::kLossOutput: tensor(spec.mutable_loss_output()->mutable_arg()); break;
      case ir::OutputSpec::kBufferMutation: tensor(spec.mutable_buffer_mutation()->mutable_arg()); break;
      case ir::OutputSpec::kGradientToParameter: tensor(spec.mutable_gradient_to_parameter()->mutable_arg()); break;
      case ir::OutputSpec::kGradientToUserInput: tensor(spec.mutable_gradient_to_user_input()->mutable_arg()); break;
      case ir::OutputSpec::kUserInputMutation: tensor(spec.mutable_user_input_mutation()->mutable_arg()); break;
      case ir::OutputSpec::kParameterMutation: tensor(spec.mutable_parameter_mutation()->mutable_arg()); break;
      default: break;
    }
  }

  void rebuild_graph(ir::Graph& graph) {
    graph.clear_nodes();
    graph.clear_tensor_values();
    std::vector<std::string> defined;
    for (const ir::Argument& input : graph.inputs()) {
      std::string_view name = single_tensor(input);
      if (!name.empty()) defined.emplace_back(name);
    }
    for (ir::Node& node : nodes_) {
      for_each_output_tensor(node, [&](const std::string& name) { defined.push_back(name); });
      *graph.add_nodes() = std::move(node);
    }
    for (const std::string& name : defined) {
      if (defined_.insert(name).second) {
        if (const ir::TensorMeta* m = meta(name)) {
          ir::TensorMetaEntry* entry = graph.add_tensor_values();
          entry->set_key(name);
          *entry->mutable_value() = *m;
        }
      }
    }
  }

  // Submodule call signatures name graph values; those that no longer exist (the outputs of
  // in-place ops) are renamed to what now holds them.
  void rename_call_graph(ir::GraphModule& module) {
    auto rename = [&](const std::string& v) { return defined_.count(v) ? v : read(v); };
    for (ir::ModuleCallEntry& entry : *module.mutable_module_call_graph()) {
      if (!entry.has_signature()) continue;
      for (ir::Argument& a : *entry.mutable_signature()->mutable_inputs()) rewrite_tensor_names(a, rename);
      for (ir::Argument& a : *entry.mutable_signature()->mutable_outputs()) rewrite_tensor_names(a, rename);
    }
  }

  struct ViewOf {
    std::string parent;    // canonical value the view was taken of
    const ir::Node* node;  // the view node (element_views_ for an element of a split); null:
                           // an element of a multi-output view that has no single-view spelling
    std::string producer;  // that node's name, for messages
    std::string why_not;   // when node is null: why
  };
  struct Seen {
    std::string current;  // the name that holds the value
    int version = 0;      // writes to its base it reflects
  };

  const ir::ExportedProgram& program_;
  const ir::Graph& graph_;
  const opschema::SchemaCatalog* schemas_;  // custom op schemas (auto_functionalize.h)
  NameAllocator names_;
  std::unordered_map<std::string, ir::TensorMeta> meta_;
  std::unordered_map<std::string, std::string> same_as_;  // in-place output -> what it wrote
  std::unordered_map<std::string, ViewOf> views_;
  std::deque<ir::Node> element_views_;  // stable addresses for ViewOf::node
  std::unordered_set<std::string> call_views_;  // call outputs that are views of an operand
  std::unordered_map<std::string, int> writes_;  // base -> number of writes so far
  std::unordered_map<std::string, Seen> seen_;
  std::unordered_set<std::string> defined_;
  std::vector<ir::Node> nodes_;
  int rewritten_ = 0;
};

}  // namespace

FunctionalizeResult functionalize(ir::Program& program, bool whole_program, const opschema::SchemaCatalog* schemas) {
  FunctionalizeResult result;
  try {
    Functionalizer functionalizer(program.program(), schemas);
    ir::ExportedProgram lowered = functionalizer.run();
    if (whole_program) {
      if (std::string error = thread_effect_tokens(lowered); !error.empty()) throw LoweringError{error};
    }
    *program.mutable_program() = std::move(lowered);
    result.writes = functionalizer.rewritten();
    result.ok = true;
  } catch (const LoweringError& error) {
    result.error = error.message;
  }
  return result;
}

}  // namespace pt2lint::lowering
