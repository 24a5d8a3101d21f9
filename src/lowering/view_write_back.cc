#include "lowering/view_write_back.h"

#include <array>
#include <vector>

#include <fmt/format.h>

#include "lowering/argument_values.h"
#include "lowering/view_ops.h"

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
  arg.mutable_arg()->mutable_as_ints();  // set even when empty (a 0-d base): else it writes as null
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

PlannedNode planned(std::string op, std::string overload, std::vector<ir::NamedArgument> inputs) {
  PlannedNode node;
  node.target = "torch.ops.aten." + op + "." + (overload.empty() ? "default" : overload);
  node.stem = op;
  node.inputs = std::move(inputs);
  return node;
}

ViewWriteBack node_plan(std::string op, std::string overload, std::vector<ir::NamedArgument> inputs) {
  ViewWriteBack plan;
  plan.kind = ViewWriteBack::Kind::kNode;
  plan.nodes.push_back(planned(std::move(op), std::move(overload), std::move(inputs)));
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

ir::NamedArgument previous_arg(std::string_view name) { return tensor_arg(name, std::string(kPreviousValue)); }

std::int64_t numel(const std::vector<std::int64_t>& sizes) {
  std::int64_t n = 1;
  for (std::int64_t s : sizes) n *= s;
  return n;
}

const ir::NamedArgument* first_input(const ir::Node& node, std::initializer_list<std::string_view> names) {
  for (std::string_view name : names)
    if (const ir::NamedArgument* input = find_input(node, name)) return input;
  return nullptr;
}

// The views added for writes inside higher-order ops (docs/reference-lowering.md): narrow,
// swapaxes/swapdims, movedim/moveaxis, expand and its kin, unfold. kUnsupported with an empty reason: not one of these.
ViewWriteBack plan_more_views(const ir::Node& view, std::string_view op, const std::string& parent,
                              const std::string& source, const ir::TensorMeta* parent_meta,
                              const ir::TensorMeta* view_meta) {
  std::vector<ir::NamedArgument> inputs;
  if (op == "aten::narrow") {
    std::int64_t dim = 0, start = 0, length = 0;
    if (!int_input(view, "dim", dim) || !int_input(view, "start", start) || !int_input(view, "length", length))
      return unsupported("its dim, start or length is not a static integer, so the slice_scatter bounds cannot be spelled");
    inputs = {tensor_arg("self", parent), tensor_arg("src", source), int_arg("dim", dim), int_arg("start", start),
              int_arg("end", start + length), int_arg("step", 1)};
    return node_plan("slice_scatter", "", std::move(inputs));
  }
  if (op == "aten::swapaxes" || op == "aten::swapdims") {
    const ir::NamedArgument* a = first_input(view, {"axis0", "dim0"});
    const ir::NamedArgument* b = first_input(view, {"axis1", "dim1"});
    if (a == nullptr || b == nullptr) return unsupported("its two dimensions are missing");
    ir::NamedArgument dim0 = *a, dim1 = *b;
    dim0.set_name("dim0");
    dim1.set_name("dim1");
    return node_plan("transpose", "int", {tensor_arg("self", source), dim0, dim1});
  }
  if (op == "aten::movedim" || op == "aten::moveaxis") {
    const ir::NamedArgument* from = find_input(view, "source");
    const ir::NamedArgument* to = find_input(view, "destination");
    if (from == nullptr || to == nullptr) return unsupported("its source or destination is missing");
    ir::NamedArgument new_from = *to, new_to = *from;  // the inverse moves them back
    new_from.set_name("source");
    new_to.set_name("destination");
    return node_plan("movedim", from->arg().has_as_ints() ? "intlist" : "int",
                     {tensor_arg("self", source), new_from, new_to});
  }
  if (op == "aten::expand" || op == "aten::expand_as" || op == "aten::broadcast_to") {
    std::vector<std::int64_t> base, viewed;
    if (!static_sizes(parent_meta, base) || !static_sizes(view_meta, viewed))
      return unsupported("its sizes are symbolic, so pt2lint cannot tell whether it broadcasts");
    if (numel(base) != numel(viewed))
      return unsupported(
          "it broadcasts a dimension to several elements that share one memory location; eager "
          "PyTorch refuses to write such a tensor, and no inverse view exists");
    return node_plan("view", "", {tensor_arg("self", source), ints_arg("size", base)});
  }
  if (op == "aten::unfold") {
    std::int64_t dim = 0, size = 0, step = 0;
    std::vector<std::int64_t> base;
    if (!int_input(view, "dimension", dim) || !int_input(view, "size", size) || !int_input(view, "step", step) ||
        !static_sizes(parent_meta, base) || base.empty())
      return unsupported("its arguments or the sizes of its base are not static");
    const auto rank = static_cast<std::int64_t>(base.size());
    if (dim < 0) dim += rank;
    if (dim < 0 || dim >= rank || size <= 0 || step != size)
      return unsupported("its windows overlap or leave gaps (step != size): a write through them has no "
                         "inverse view");
    const std::int64_t windows = (base[static_cast<std::size_t>(dim)] - size) / step + 1;
    const std::int64_t covered = windows * size;
    std::vector<std::int64_t> folded = base;
    folded[static_cast<std::size_t>(dim)] = covered;
    ViewWriteBack plan;
    plan.kind = ViewWriteBack::Kind::kNode;
    // unfold puts the window last: move it back beside its dimension, then fold the two.
    std::vector<std::int64_t> moved = base;
    moved[static_cast<std::size_t>(dim)] = windows;
    moved.insert(moved.begin() + dim + 1, size);
    plan.nodes.push_back(planned("movedim", "int", {tensor_arg("self", source), int_arg("source", -1),
                                                   int_arg("destination", dim + 1)}));
    plan.nodes.back().sizes = moved;
    plan.nodes.push_back(planned("view", "", {previous_arg("self"), ints_arg("size", folded)}));
    if (covered != base[static_cast<std::size_t>(dim)]) plan.nodes.back().sizes = folded;
    if (covered != base[static_cast<std::size_t>(dim)]) {
      plan.nodes.push_back(planned("slice_scatter", "", {tensor_arg("self", parent), previous_arg("src"),
                                                        int_arg("dim", dim), int_arg("start", 0),
                                                        int_arg("end", covered), int_arg("step", 1)}));
    }
    return plan;
  }
  return {};
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
                                   const std::string& source, const ir::TensorMeta* parent_meta,
                                   const ir::TensorMeta* view_meta) {
  const auto schema = opschema::find_schema(view_op, overload);
  if (!schema) return unsupported(fmt::format("{} has no schema in the operator table", view_op));
  const ViewLoweringRule rule = view_lowering(*schema);
  if (rule.kind == ViewLowering::kRefused) return unsupported(rule.reason);
  if (ViewWriteBack more = plan_more_views(view, view_op, parent, source, parent_meta, view_meta);
      more.kind != ViewWriteBack::Kind::kUnsupported || !more.reason.empty())
    return more;
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
  if ((op == "aten::diagonal" || op == "aten::linalg_diagonal") && overload.empty())
    return scatter("diagonal_scatter", {"offset", "dim1", "dim2"});
  if (op == "aten::as_strided" && overload.empty())
    return scatter("as_strided_scatter", {"size", "stride", "storage_offset"});

  if (op == "aten::alias" || op == "aten::to" || op == "aten::contiguous" || op == "aten::type_as" ||
      op == "aten::detach" || op == "aten::lift_fresh" || op == "aten::positive") {
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
      op == "aten::flatten" || op == "aten::unflatten" || op == "aten::ravel") {
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

namespace pt2lint::lowering {

Expected<ir::Node> element_view(const ir::Node& node, std::string_view op, int element,
                                const std::vector<const ir::TensorMeta*>& elements,
                                const ir::TensorMeta* parent_meta) {
  const ir::NamedArgument* self = find_input(node, "self");
  const std::int64_t rank = parent_meta != nullptr ? parent_meta->sizes_size() : -1;
  std::int64_t dim = 0;
  if (op == "aten::hsplit") dim = rank == 1 ? 0 : 1;
  else if (op == "aten::dsplit") dim = 2;
  else if (const ir::NamedArgument* d = find_input(node, "dim"); d != nullptr && !int_input(node, "dim", dim)) {
    return Status::error("its dim is not a static integer");
  }
  if (self == nullptr || rank < 0 || element < 0 || element >= static_cast<int>(elements.size())) {
    return Status::error("its input or the shapes of its elements are unknown");
  }
  if (dim < 0) dim += rank;
  if (dim < 0 || dim >= rank) {
    return Status::error("its dim is out of range");
  }
  ir::Node view;
  view.add_inputs()->CopyFrom(tensor_arg("self", std::string(single_tensor(self->arg()))));
  view.add_inputs()->CopyFrom(int_arg("dim", dim));
  if (op == "aten::unbind") {
    view.set_target("torch.ops.aten.select.int");
    view.add_inputs()->CopyFrom(int_arg("index", element));
    return view;
  }
  // split, chunk, tensor_split, ...: consecutive ranges of `dim`, in element order.
  std::int64_t start = 0, end = 0;
  for (int k = 0; k <= element; ++k) {
    const ir::TensorMeta* meta = elements[static_cast<std::size_t>(k)];
    if (meta == nullptr || meta->sizes_size() != rank || !meta->sizes(static_cast<int>(dim)).has_as_int()) {
      return Status::error("the sizes of its elements are not static");
    }
    start = end;
    end += meta->sizes(static_cast<int>(dim)).as_int();
  }
  view.set_target("torch.ops.aten.slice.Tensor");
  view.add_inputs()->CopyFrom(int_arg("start", start));
  view.add_inputs()->CopyFrom(int_arg("end", end));
  view.add_inputs()->CopyFrom(int_arg("step", 1));
  return view;
}

}  // namespace pt2lint::lowering
