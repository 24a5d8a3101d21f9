#include "analysis/dataflow/inplace_provenance.h"

#include "analysis/program_index.h"

namespace pt2lint::dataflow {
namespace {

// `add_` and `index_copy_` are in-place; dunders (`__and__`) and `_softmax` are not.
bool is_inplace_op_name(std::string_view name) {
  if (name == "__setitem__") return true;
  if (name.size() > 4 && name.starts_with("__i") && name.ends_with("__")) return true;  // __iadd__
  return name.size() > 1 && name.back() == '_' && name[name.size() - 2] != '_';
}

// `add__1;method_descriptor.add_` -> `add_`.
std::string_view torch_fn_callable(std::string_view torch_fn) {
  std::size_t semicolon = torch_fn.find(';');
  if (semicolon == std::string_view::npos) return {};
  std::string_view qualified = torch_fn.substr(semicolon + 1);
  std::size_t dot = qualified.rfind('.');
  return dot == std::string_view::npos ? qualified : qualified.substr(dot + 1);
}

// Calls `visit(target)` for each `"target": "..."` in the from_node JSON, stopping when it
// returns true. A plain scan: the JSON is written by one serializer with this exact spacing.
template <typename Visit>
bool any_from_node_target(std::string_view from_node, Visit&& visit) {
  constexpr std::string_view kKey = "\"target\": \"";
  for (std::size_t at = from_node.find(kKey); at != std::string_view::npos;
       at = from_node.find(kKey, at)) {
    at += kKey.size();
    std::size_t end = from_node.find('"', at);
    if (end == std::string_view::npos) return false;
    if (visit(from_node.substr(at, end - at))) return true;
    at = end;
  }
  return false;
}

// `aten.index_copy_.default` -> `index_copy_`.
std::string_view target_op_name(std::string_view target) {
  std::size_t first = target.find('.');
  std::size_t last = target.rfind('.');
  if (first == std::string_view::npos || last == first) return target;
  return target.substr(first + 1, last - first - 1);
}

}  // namespace

bool created_from(const ProgramIndex& index, int node, const opschema::OpSchema& inplace) {
  if (torch_fn_callable(index.node_metadata(node, "torch_fn")) == inplace.base_name()) return true;
  std::string_view from_node = index.node_metadata(node, "from_node");
  if (from_node.empty()) return false;
  const std::string expected = inplace.provenance_target();
  return any_from_node_target(from_node, [&](std::string_view t) { return t == expected; });
}

bool created_from_any_inplace_op(const ProgramIndex& index, int node) {
  if (is_inplace_op_name(torch_fn_callable(index.node_metadata(node, "torch_fn")))) return true;
  return any_from_node_target(index.node_metadata(node, "from_node"), [](std::string_view t) {
    return is_inplace_op_name(target_op_name(t));
  });
}

}  // namespace pt2lint::dataflow
