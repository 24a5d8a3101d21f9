// The value state of a functionalize() run: which name holds a value now (read), what a
// write changes (write, carried through every view back to its base), which outputs are views
// of which inputs (record_views), and the tensor metadata of the values it creates.
#include <string>
#include <utility>
#include <vector>

#include <fmt/format.h>

#include "analysis/program_index.h"
#include "core/ir/tensor_meta_predicates.h"
#include "lowering/argument_values.h"
#include "lowering/functionalizer.h"
#include "lowering/provenance.h"
#include "lowering/view_ops.h"
#include "lowering/view_write_back.h"

namespace pt2lint::lowering {

using opschema::OpSchema;

// Both walks stop after as many steps as the map has entries, a second line of defence:
// refuse_view_cycle keeps cycles out of views_, and a broken program that still makes one
// fails self_check, so where the walk stops does not matter.
std::string Functionalizer::canonical(std::string value) const {
  std::size_t steps = 0;
  for (auto it = same_as_.find(value); it != same_as_.end() && steps++ <= same_as_.size(); it = same_as_.find(value))
    value = it->second;
  return value;
}

std::string Functionalizer::base_of(std::string value) const {
  std::size_t steps = 0;
  for (auto it = views_.find(value); it != views_.end() && steps++ <= views_.size(); it = views_.find(value))
    value = it->second.parent;
  return value;
}

// A view of its own view exists only in a broken program (one that reads a value before
// defining it); every walk to its base would be endless, so it is refused.
void Functionalizer::refuse_view_cycle(const std::string& view, const std::string& parent, const ir::Node& node) const {
  std::string at = parent;
  for (std::size_t steps = 0; steps <= views_.size(); ++steps) {
    if (at == view) {
      throw LoweringError{fmt::format("node '{}' makes '{}' a view of itself through '{}': the program reads a "
                                      "value before it is defined",
                                      fx_node_name(node), view, parent)};
    }
    auto it = views_.find(at);
    if (it == views_.end()) return;
    at = it->second.parent;
  }
}

int Functionalizer::writes_to(const std::string& base) const {
  auto it = writes_.find(base);
  return it == writes_.end() ? 0 : it->second;
}

// The name that holds `value` now: itself until its storage is written, then the latest
// functional value, regenerating a view of an updated base where one is read.
std::string Functionalizer::read(const std::string& value) {
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
  set_created_from(regenerated, original, fx_node_name(original));
  copy_meta(c, out);
  nodes_.push_back(std::move(regenerated));
  seen_[c] = {out, version};
  return out;
}

// Records that `target` (a value name) now holds `new_value`, carrying the write through
// every view between it and its base. `cause` is the writing node, for provenance.
void Functionalizer::write(const std::string& target, const std::string& new_value, const ir::Node& cause) {
  const std::string c = canonical(target);
  if (call_views_.count(c)) {
    throw LoweringError{fmt::format(
        "node '{}' writes '{}', a view of an operand that a higher-order op returned; the reference "
        "lowering cannot carry the write back through the call", fx_node_name(cause), c)};
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
        fx_node_name(cause), c, of.producer, base_of(c), of.why_not)};
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
        set_created_from(scatter, cause, fx_node_name(cause));
        copy_meta(of.parent, parent_new);
        if (!step.sizes.empty()) set_contiguous_sizes(parent_new, step.sizes);
        nodes_.push_back(std::move(scatter));
      }
      break;
    }
    case ViewWriteBack::Kind::kUnsupported:
      throw LoweringError{fmt::format(
          "node '{}' writes '{}', a view made by node '{}' ({}); {}", fx_node_name(cause), c,
          fx_node_name(view_node), view_node.target(), plan.reason)};
  }
  write(of.parent, parent_new, cause);
  seen_[c] = {new_value, writes_to(base_of(c))};
}

const ir::TensorMeta* Functionalizer::meta(const std::string& value) const {
  auto it = meta_.find(value);
  return it == meta_.end() ? nullptr : &it->second;
}

// An intermediate value of a view write-back: the parent's dtype and device, its own sizes.
void Functionalizer::set_contiguous_sizes(const std::string& value, const std::vector<std::int64_t>& sizes) {
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

void Functionalizer::copy_meta(const std::string& from, const std::string& to) {
  if (const ir::TensorMeta* m = meta(from)) meta_[to] = *m;
}

// Outputs that alias an input (views, and ops that returned their input unchanged) share
// its storage: a later write to either must be seen through the other.
void Functionalizer::record_views(int index, const OpSchema& schema) {
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
      views_[out] = {parent, &node, std::string(fx_node_name(node)), {}};
      seen_[out] = {out, version};
    } else if (output.has_as_tensors()) {
      record_element_views(node, schema, parent, version, output.as_tensors());
    }
  }
}

// split, chunk, unbind, ...: each element is recorded as the single slice or select it is,
// so a write to it is carried back (and a read after a write regenerated) like any view.
void Functionalizer::record_element_views(const ir::Node& node, const OpSchema& schema, const std::string& parent,
                          int version, const ir::TensorArgumentList& elements) {
  std::vector<const ir::TensorMeta*> metas;
  for (const ir::TensorArgument& element : elements.items()) metas.push_back(meta(element.name()));
  const ViewLoweringRule rule = view_lowering(schema);
  for (int k = 0; k < elements.items_size(); ++k) {
    const std::string& name = elements.items(k).name();
    ViewOf of{parent, nullptr, std::string(fx_node_name(node)), rule.reason};
    if (rule.kind == ViewLowering::kElementScatter) {
      Expected<ir::Node> view = element_view(node, schema.name(), k, metas, meta(parent));
      if (view.ok()) {
        view->set_name(name);
        view->add_outputs()->mutable_as_tensor()->set_name(name);
        *view->mutable_metadata() = node.metadata();
        of.node = &element_views_.emplace_back(std::move(view).value());
      } else {
        of.why_not = view.message();
      }
    }
    refuse_view_cycle(name, parent, node);
    views_[name] = std::move(of);
    seen_[name] = {name, version};
  }
}

// `to`, `contiguous`, `type_as` and `reshape` alias their input only when they convert
// nothing; the tensor metadata says whether they did.
bool Functionalizer::returns_input_unchanged(const OpSchema& schema, const ir::Node& node, const std::string& in,
                             const std::string& out) const {
  if (schema.name() == "aten::alias") return true;
  const ir::TensorMeta* a = meta(in);
  const ir::TensorMeta* b = meta(out);
  if (a == nullptr || b == nullptr) return false;
  if (schema.name() == "aten::reshape" || schema.name() == "aten::reshape_as") return contiguity(*a) == Contiguity::kContiguous;
  if (const ir::NamedArgument* copy = find_input(node, "copy"); copy && copy->arg().has_as_bool() &&
                                                                 copy->arg().as_bool())
    return false;
  return a->dtype() == b->dtype() && same_device(a->device(), b->device()) && same_sizes(*a, *b) &&
         same_strides(*a, *b);
}

}  // namespace pt2lint::lowering
