#include "core/ir/tensor_bytes.h"

#include <fmt/format.h>


namespace pt2lint {
namespace {

struct ScalarTypeInfo {
  int code;
  std::uint64_t bytes;
  std::string_view name;
};

// Schema codes, not c10 codes: torch/_export/serde/schema.py ScalarType.
constexpr ScalarTypeInfo kScalarTypes[] = {
    {1, 1, "uint8"},          {2, 1, "int8"},           {3, 2, "int16"},
    {4, 4, "int32"},          {5, 8, "int64"},          {6, 2, "float16"},
    {7, 4, "float32"},        {8, 8, "float64"},        {9, 4, "complex32"},
    {10, 8, "complex64"},     {11, 16, "complex128"},   {12, 1, "bool"},
    {13, 2, "bfloat16"},      {28, 2, "uint16"},        {29, 1, "float8_e4m3fn"},
    {30, 1, "float8_e5m2"},   {31, 1, "float8_e4m3fnuz"}, {32, 1, "float8_e5m2fnuz"},
    {33, 1, "float8_e8m0fnu"}, {34, 4, "uint32"},       {35, 8, "uint64"},
};

const ScalarTypeInfo* find_scalar_type(int dtype) {
  for (const ScalarTypeInfo& info : kScalarTypes)
    if (info.code == dtype) return &info;
  return nullptr;
}

// Whether every entry is a concrete int.
bool all_concrete(const google::protobuf::RepeatedPtrField<ir::SymInt>& values) {
  for (const ir::SymInt& value : values) {
    if (!value.has_as_int()) return false;
  }
  return true;
}

std::string describe_ints(const google::protobuf::RepeatedPtrField<ir::SymInt>& values) {
  std::string out = "[";
  for (int i = 0; i < values.size(); ++i) {
    if (i > 0) out += ", ";
    out += values[i].has_as_int() ? std::to_string(values[i].as_int()) : "?";
  }
  return out + "]";
}

}  // namespace

std::optional<std::uint64_t> scalar_type_size(int dtype) {
  const ScalarTypeInfo* info = find_scalar_type(dtype);
  if (info == nullptr) return std::nullopt;
  return info->bytes;
}

namespace {

// "float32", "int64", ...; "dtype <code>" for unknown codes.
std::string scalar_type_name(int dtype) {
  const ScalarTypeInfo* info = find_scalar_type(dtype);
  return info ? std::string(info->name) : fmt::format("dtype {}", dtype);
}

}  // namespace

std::optional<std::uint64_t> required_storage_bytes(const ir::TensorMeta& meta) {
  std::optional<std::uint64_t> element = scalar_type_size(meta.dtype());
  if (!element) return std::nullopt;
  // Read in place: the state-dict check asks this of every parameter and buffer, and copying
  // sizes and strides into vectors cost two allocations a tensor.
  const auto& sizes = meta.sizes();
  const auto& strides = meta.strides();
  if (!all_concrete(sizes) || !all_concrete(strides)) return std::nullopt;
  if (meta.has_storage_offset() && !meta.storage_offset().has_as_int()) return std::nullopt;
  std::int64_t offset = meta.has_storage_offset() ? meta.storage_offset().as_int() : 0;
  if (offset < 0) return std::nullopt;
  for (const ir::SymInt& size : sizes) {
    if (size.as_int() < 0) return std::nullopt;
    if (size.as_int() == 0) return 0;
  }
  const bool contiguous = strides.empty();
  if (!contiguous && strides.size() != sizes.size()) return std::nullopt;
  std::uint64_t last = static_cast<std::uint64_t>(offset);
  std::int64_t contiguous_stride = 1;  // of dimension i, from the innermost out
  for (int i = sizes.size(); i-- > 0;) {
    const std::int64_t size = sizes[i].as_int();
    const std::int64_t stride = contiguous ? contiguous_stride : strides[i].as_int();
    if (stride < 0) return std::nullopt;
    if (contiguous && __builtin_mul_overflow(contiguous_stride, size, &contiguous_stride)) {
      return std::nullopt;
    }
    std::uint64_t reach = 0;
    if (__builtin_mul_overflow(static_cast<std::uint64_t>(size - 1),
                               static_cast<std::uint64_t>(stride), &reach) ||
        __builtin_add_overflow(last, reach, &last))
      return std::nullopt;
  }
  std::uint64_t bytes = 0;
  if (__builtin_mul_overflow(last + 1, *element, &bytes)) return std::nullopt;
  return bytes;
}

namespace {

// "float32 [4, 4] strides [4, 1] offset 0", for messages. Symbolic entries print as "?".
std::string describe_tensor_meta(const ir::TensorMeta& meta) {
  std::string offset = !meta.has_storage_offset()            ? "0"
                       : meta.storage_offset().has_as_int() ? std::to_string(meta.storage_offset().as_int())
                                                            : "?";
  return fmt::format("{} {} strides {} offset {}", scalar_type_name(meta.dtype()),
                     describe_ints(meta.sizes()), describe_ints(meta.strides()), offset);
}

}  // namespace

RecordFit check_record_fits(std::uint64_t record_bytes, const ir::TensorMeta& meta) {
  // torch.export.load turns a 0-byte raw record into torch.zeros(sizes): a fake/empty tensor.
  if (record_bytes == 0) return {};
  std::optional<std::uint64_t> element = scalar_type_size(meta.dtype());
  if (element && record_bytes % *element != 0) {
    return {false, fmt::format("{} bytes is not a multiple of the {}-byte {} element size",
                               record_bytes, *element, scalar_type_name(meta.dtype()))};
  }
  std::optional<std::uint64_t> needed = required_storage_bytes(meta);
  if (needed && record_bytes < *needed) {
    return {false, fmt::format("the record holds {} bytes, but a {} tensor needs {}",
                               record_bytes, describe_tensor_meta(meta), *needed)};
  }
  return {};
}

}  // namespace pt2lint
