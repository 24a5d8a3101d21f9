#include "analysis/dataflow/tensor_meta_text.h"

#include <fmt/format.h>

namespace pt2lint::dataflow {
namespace {

std::string sym_int_text(const ir::SymInt& size) {
  if (size.has_as_int()) return std::to_string(size.as_int());
  if (size.has_as_expr()) return size.as_expr().expr_str();
  return "?";
}

}  // namespace

std::string_view dtype_name(int dtype) {
  // torch/_export/serde/schema.py ScalarType codes (not c10's).
  switch (dtype) {
    case 1: return "uint8";
    case 2: return "int8";
    case 3: return "int16";
    case 4: return "int32";
    case 5: return "int64";
    case 6: return "float16";
    case 7: return "float32";
    case 8: return "float64";
    case 9: return "complex32";
    case 10: return "complex64";
    case 11: return "complex128";
    case 12: return "bool";
    case 13: return "bfloat16";
    case 28: return "uint16";
    case 29: return "float8_e4m3fn";
    case 30: return "float8_e5m2";
    case 31: return "float8_e4m3fnuz";
    case 32: return "float8_e5m2fnuz";
    case 33: return "float8_e8m0fnu";
    case 34: return "uint32";
    case 35: return "uint64";
    default: return "unknown dtype";
  }
}

std::string shape_text(const ir::TensorMeta& meta) {
  std::string out = "(";
  for (int d = 0; d < meta.sizes_size(); ++d) {
    if (d > 0) out += ", ";
    out += sym_int_text(meta.sizes(d));
  }
  return out + ")";
}

std::string device_text(const ir::Device& device) {
  if (!device.has_index()) return device.type();
  return fmt::format("{}:{}", device.type(), device.index());
}

std::string meta_text(const ir::TensorMeta& meta) {
  return fmt::format("{} {}", shape_text(meta), dtype_name(meta.dtype()));
}

}  // namespace pt2lint::dataflow
