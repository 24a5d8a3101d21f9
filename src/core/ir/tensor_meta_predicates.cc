#include "core/ir/tensor_meta_predicates.h"

#include <cstdint>

namespace pt2lint {
namespace {

template <typename SymInts>
bool same_sym_ints(const SymInts& a, const SymInts& b) {
  if (a.size() != b.size()) return false;
  for (int i = 0; i < a.size(); ++i) {
    if (!same_sym_int(a.Get(i), b.Get(i))) return false;
  }
  return true;
}

}  // namespace

bool same_sym_int(const ir::SymInt& a, const ir::SymInt& b) {
  if (a.has_as_int() && b.has_as_int()) return a.as_int() == b.as_int();
  if (a.has_as_expr() && b.has_as_expr()) return a.as_expr().expr_str() == b.as_expr().expr_str();
  return false;
}

bool same_sizes(const ir::TensorMeta& a, const ir::TensorMeta& b) {
  return same_sym_ints(a.sizes(), b.sizes());
}

bool same_strides(const ir::TensorMeta& a, const ir::TensorMeta& b) {
  return same_sym_ints(a.strides(), b.strides());
}

bool same_device(const ir::Device& a, const ir::Device& b) {
  return a.type() == b.type() && a.has_index() == b.has_index() &&
         (!a.has_index() || a.index() == b.index());
}

bool compatible_devices(const ir::Device& a, const ir::Device& b) {
  if (a.type() != b.type()) return false;
  return !a.has_index() || !b.has_index() || a.index() == b.index();
}

Contiguity contiguity(const ir::TensorMeta& meta) {
  if (meta.sizes_size() != meta.strides_size()) return Contiguity::kUnknown;
  std::int64_t expected = 1;
  for (int d = meta.sizes_size() - 1; d >= 0; --d) {
    const ir::SymInt& size = meta.sizes(d);
    const ir::SymInt& stride = meta.strides(d);
    if (!size.has_as_int() || !stride.has_as_int()) return Contiguity::kUnknown;
    if (size.as_int() != 1 && stride.as_int() != expected) return Contiguity::kNonContiguous;
    expected *= size.as_int();
  }
  return Contiguity::kContiguous;
}

}  // namespace pt2lint
