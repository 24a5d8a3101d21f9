#include "lowering/view_ops.h"

#include <array>

#include <fmt/format.h>

namespace pt2lint::lowering {
namespace {

struct Entry {
  std::string_view op;        // "aten::slice"
  std::string_view overload;  // "*": any overload
  ViewLowering kind;
  std::string_view condition;  // when the lowering applies (else the write is refused)
};

constexpr std::string_view kStatic = "static integer arguments";
constexpr std::string_view kStaticShape = "a base with static sizes";

// The lowerable view ops. Every other view op is refused by name (view_lowering below).
constexpr std::array<Entry, 38> kLowerable = {{
    {"aten::slice", "Tensor", ViewLowering::kScatter, ""},
    {"aten::narrow", "", ViewLowering::kScatter, kStatic},
    {"aten::select", "int", ViewLowering::kScatter, ""},
    {"aten::diagonal", "", ViewLowering::kScatter, ""},
    {"aten::linalg_diagonal", "", ViewLowering::kScatter, ""},
    {"aten::as_strided", "", ViewLowering::kScatter, ""},
    {"aten::view", "", ViewLowering::kInverseView, kStaticShape},
    {"aten::reshape", "", ViewLowering::kInverseView, kStaticShape},
    {"aten::reshape_as", "", ViewLowering::kInverseView, kStaticShape},
    {"aten::view_as", "", ViewLowering::kInverseView, kStaticShape},
    {"aten::ravel", "", ViewLowering::kInverseView, kStaticShape},
    {"aten::squeeze", "*", ViewLowering::kInverseView, kStaticShape},
    {"aten::flatten", "using_ints", ViewLowering::kInverseView, kStaticShape},
    {"aten::unflatten", "int", ViewLowering::kInverseView, kStaticShape},
    {"aten::unsqueeze", "", ViewLowering::kInverseView, kStatic},
    {"aten::expand", "", ViewLowering::kInverseView,
     "a base with static sizes, and no dimension broadcast to more than one element (eager PyTorch "
     "refuses to write such a tensor: several elements share one memory location)"},
    {"aten::expand_as", "", ViewLowering::kInverseView, "as for expand"},
    {"aten::broadcast_to", "", ViewLowering::kInverseView, "as for expand"},
    {"aten::unfold", "", ViewLowering::kInverseView,
     "windows that tile the dimension (step == size) and a base with static sizes; overlapping or "
     "gapped windows have no inverse view"},
    {"aten::transpose", "int", ViewLowering::kInverseView, ""},
    {"aten::swapaxes", "", ViewLowering::kInverseView, ""},
    {"aten::swapdims", "", ViewLowering::kInverseView, ""},
    {"aten::t", "", ViewLowering::kInverseView, ""},
    {"aten::permute", "", ViewLowering::kInverseView, kStatic},
    {"aten::movedim", "*", ViewLowering::kInverseView, kStatic},
    {"aten::moveaxis", "*", ViewLowering::kInverseView, kStatic},
    {"aten::alias", "", ViewLowering::kIdentity, ""},
    {"aten::detach", "", ViewLowering::kIdentity, ""},
    {"aten::lift_fresh", "", ViewLowering::kIdentity, ""},
    {"aten::positive", "", ViewLowering::kIdentity, ""},
    {"aten::to", "*", ViewLowering::kIdentity, "no conversion (same dtype and device, copy=False)"},
    {"aten::contiguous", "", ViewLowering::kIdentity, "an input that is already contiguous"},
    {"aten::split", "*", ViewLowering::kElementScatter, "element sizes known statically"},
    {"aten::split_with_sizes", "", ViewLowering::kElementScatter, "element sizes known statically"},
    {"aten::chunk", "", ViewLowering::kElementScatter, "element sizes known statically"},
    {"aten::tensor_split", "indices", ViewLowering::kElementScatter, "element sizes known statically"},
    {"aten::tensor_split", "sections", ViewLowering::kElementScatter, "element sizes known statically"},
    {"aten::unbind", "int", ViewLowering::kElementScatter, ""},
}};

// Why the others are refused, by family; the default names the op.
std::string refusal(std::string_view op, std::string_view overload) {
  const std::string full = overload.empty() ? std::string(op) : fmt::format("{}.{}", op, overload);
  auto is = [&](std::initializer_list<std::string_view> names) {
    for (std::string_view name : names)
      if (op == name) return true;
    return false;
  };
  if (overload.find("Dimname") != std::string_view::npos || overload.find("names") != std::string_view::npos ||
      is({"aten::align_to", "aten::refine_names", "aten::rename"}))
    return fmt::format("{} works on named tensors, which torch.export does not trace", full);
  if (is({"aten::_indices", "aten::_values", "aten::indices", "aten::values", "aten::crow_indices",
          "aten::col_indices", "aten::ccol_indices", "aten::row_indices", "aten::coalesce",
          "aten::_sparse_broadcast_to"}))
    return fmt::format("{} views a sparse tensor's storage; pt2lint lowers dense writes only", full);
  if (is({"aten::view_as_real", "aten::view_as_complex", "aten::real", "aten::imag", "aten::conj",
          "aten::_conj", "aten::resolve_conj", "aten::_neg_view", "aten::resolve_neg", "aten::mH",
          "aten::matrix_H", "aten::adjoint"}))
    return fmt::format("{} reinterprets complex or conjugate/negative views; its inverse depends on "
                       "lazy conjugation bits pt2lint does not model", full);
  if (op == "aten::view" && overload == "dtype")
    return fmt::format("{} reinterprets the bytes as another dtype; no functional op inverts it", full);
  if (is({"aten::cpu", "aten::cuda", "aten::pin_memory", "aten::_autocast_to_reduced_precision",
          "aten::_autocast_to_full_precision"}))
    return fmt::format("{} returns its input or a copy depending on the device or autocast state at run "
                       "time, which the program does not record", full);
  if (is({"aten::_fw_primal", "aten::_make_dual", "aten::_unpack_dual"}))
    return fmt::format("{} belongs to forward-mode autograd, which exported programs do not carry", full);
  if (op.starts_with("prims::") || op.starts_with("aten::_nested") || op.starts_with("aten::_test"))
    return fmt::format("{} is an internal op that exported ATen programs do not contain", full);
  return fmt::format("pt2lint knows no *_scatter op or inverse view for {}", full);
}

}  // namespace

bool is_view_op(const opschema::OpSchema& schema) {
  const auto arguments = schema.arguments();
  for (const opschema::ReturnRecord& ret : schema.returns()) {
    if (ret.writes || ret.aliases_argument < 0) continue;
    if (!arguments[static_cast<std::size_t>(ret.aliases_argument)].writes) return true;
  }
  return false;
}

ViewLoweringRule view_lowering(const opschema::OpSchema& schema) {
  const bool named = schema.overload().find("name") != std::string_view::npos ||
                     schema.overload().find("Dimname") != std::string_view::npos;
  for (const Entry& entry : kLowerable) {
    if (!named && entry.op == schema.name() && (entry.overload == "*" || entry.overload == schema.overload()))
      return {entry.kind, std::string(entry.condition)};
  }
  return {ViewLowering::kRefused, refusal(schema.name(), schema.overload())};
}

}  // namespace pt2lint::lowering
