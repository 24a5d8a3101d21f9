#include "verifier/lowering/view_write_back.h"

#include <array>
#include <vector>

#include "verifier/lowering/argument_values.h"

namespace pt2lint::lowering {
namespace {

ir::NamedArgument tensor_arg(std::string_view name, const std::string& value) {
  ir::NamedArgument arg;
  arg.set_name(std::string(name));
  arg.mutable_arg()->mutable_as_tensor()->set_name(value);
  arg.set_kind(1);
  return arg;
}

ir::NamedArgument ints_arg(std::string_view name, const std::vector<std::int64_t>& values) {
  ir::NamedArgument arg;
  arg.set_name(std::string(name));
  for (std::int64_t v : values) arg.mutable_arg()->mutable_as_ints()->add_items(v);
  arg.set_kind(1);
  return arg;
}

ir::NamedArgument int_arg(std::string_view name, std::int64_t value) {
  ir::NamedArgument arg;
  arg.set_name(std::string(name));
  arg.mutable_arg()->set_as_int(value);
  arg.set_kind(1);
  return arg;
}

// The view node's own non-tensor arguments, copied in the order the scatter op takes them.
void copy_inputs(const ir::Node& view, std::initializer_list<std::string_view> names,
                 std::vector<ir::NamedArgument>& out) {
  for (std::string_view name : names) {
    if (const ir::NamedArgument* input = find_input(view, name)) out.push_back(*input);
  }
}

ViewWriteBack node_plan(std::string op, std::string overload, std::vector<ir::NamedArgument> inputs) {
  ViewWriteBack plan;
  plan.kind = ViewWriteBack::Kind::kNode;
  plan.node.target = "torch.ops.aten." + op + "." + (overload.empty() ? "default" : overload);
  plan.node.stem = op;
  plan.node.inputs = std::move(inputs);
  return plan;
}

ViewWriteBack unsupported(std::string reason) {
  ViewWriteBack plan;
  plan.reason = std::move(reason);
  return plan;
}

// Static sizes of a tensor, or false when one is symbolic.
bool static_sizes(const ir::TensorMeta* meta, std::vector<std::int64_t>& sizes) {
  if (meta == nullptr) return false;
  for (const ir::SymInt& size : meta->sizes()) {
    if (!size.has_as_int()) return false;
    sizes.push_back(size.as_int());
  }
  return true;
}

bool int_input(const ir::Node& node, std::string_view name, std::int64_t& value) {
  const ir::NamedArgument* input = find_input(node, name);
  if (input == nullptr || !input->arg().has_as_int()) return false;
  value = input->arg().as_int();
  return true;
}

}  // namespace

bool may_return_input(std::string_view op) {
  static constexpr std::array<std::string_view, 6> kOps = {
      "aten::to", "aten::contiguous", "aten::type_as", "aten::reshape", "aten::reshape_as",
      "aten::alias"};
  for (std::string_view known : kOps)
    if (known == op) return true;
  return false;
}

ViewWriteBack plan_view_write_back(const ir::Node& view, std::string_view view_op,
                                   std::string_view overload, const std::string& parent,
                                   const std::string& source, const ir::TensorMeta* parent_meta) {
  std::vector<ir::NamedArgument> inputs;
  auto scatter = [&](std::string op, std::initializer_list<std::string_view> names) {
    inputs.push_back(tensor_arg("self", parent));
    inputs.push_back(tensor_arg("src", source));
    copy_inputs(view, names, inputs);
    return node_plan(std::move(op), "", std::move(inputs));
  };
  const std::string op(view_op);
  const std::int64_t parent_rank = parent_meta != nullptr ? parent_meta->sizes_size() : -1;

  if (op == "aten::slice" && overload == "Tensor") return scatter("slice_scatter", {"dim", "start", "end", "step"});
  if (op == "aten::select" && overload == "int") return scatter("select_scatter", {"dim", "index"});
  if (op == "aten::diagonal" && overload.empty()) return scatter("diagonal_scatter", {"offset", "dim1", "dim2"});
  if (op == "aten::as_strided" && overload.empty())
    return scatter("as_strided_scatter", {"size", "stride", "storage_offset"});

  if (op == "aten::alias" || op == "aten::to" || op == "aten::contiguous" || op == "aten::type_as" ||
      op == "aten::detach" || op == "aten::lift_fresh") {
    ViewWriteBack plan;
    plan.kind = ViewWriteBack::Kind::kIdentity;
    return plan;
  }
  if (op == "aten::transpose" && overload == "int") {
    inputs.push_back(tensor_arg("self", source));
    copy_inputs(view, {"dim0", "dim1"}, inputs);
    return node_plan("transpose", "int", std::move(inputs));
  }
  if (op == "aten::t" && overload.empty()) {
    inputs.push_back(tensor_arg("self", source));
    return node_plan("t", "", std::move(inputs));
  }
  if (op == "aten::permute" && overload.empty()) {
    const ir::NamedArgument* dims = find_input(view, "dims");
    if (dims == nullptr || !dims->arg().has_as_ints())
      return unsupported("its permutation is not a list of integers");
    const auto& order = dims->arg().as_ints().items();
    const std::int64_t rank = order.size();
    std::vector<std::int64_t> inverse(static_cast<std::size_t>(rank), 0);
    for (std::int64_t i = 0; i < rank; ++i) {
      std::int64_t d = order[static_cast<int>(i)];
      if (d < 0) d += rank;
      if (d < 0 || d >= rank) return unsupported("its permutation is out of range");
      inverse[static_cast<std::size_t>(d)] = i;
    }
    inputs.push_back(tensor_arg("self", source));
    inputs.push_back(ints_arg("dims", inverse));
    return node_plan("permute", "", std::move(inputs));
  }
  if (op == "aten::unsqueeze" && overload.empty()) {
    std::int64_t dim = 0;
    if (!int_input(view, "dim", dim) || parent_rank < 0) return unsupported("its dimension is not static");
    if (dim < 0) dim += parent_rank + 1;
    inputs.push_back(tensor_arg("self", source));
    inputs.push_back(int_arg("dim", dim));
    return node_plan("squeeze", "dim", std::move(inputs));
  }
  if (op == "aten::view" || op == "aten::_unsafe_view" || op == "aten::reshape" ||
      op == "aten::reshape_as" || op == "aten::view_as" || op == "aten::squeeze" ||
      op == "aten::flatten" || op == "aten::unflatten") {
    std::vector<std::int64_t> sizes;
    if (!static_sizes(parent_meta, sizes))
      return unsupported("the shape it views has symbolic sizes, so its inverse view cannot be spelled");
    inputs.push_back(tensor_arg("self", source));
    inputs.push_back(ints_arg("size", sizes));
    return node_plan("view", "", std::move(inputs));
  }
  return unsupported("pt2lint knows no *_scatter op or inverse view for " + op);
}

}  // namespace pt2lint::lowering
