// How many bytes of storage a tensor's metadata implies, so a weights record's size (taken
// from the zip central directory, never by reading it) can be checked against it the way
// torch.export.load rebuilds the tensor: a 1-D array of the dtype, then as_strided.
#pragma once

#include <cstdint>
#include <optional>
#include <string>
#include <string_view>

#include "program.pb.h"

namespace pt2lint {

// Bytes per element of a schema ScalarType code (format doc 2.2), nullopt for UNKNOWN and
// codes this build does not know.
std::optional<std::uint64_t> scalar_type_size(int dtype);

// Bytes as_strided(sizes, strides, storage_offset) reaches: 0 for an empty tensor, else
// (offset + sum((size_i - 1) * stride_i) + 1) * element size. Missing strides mean
// contiguous. nullopt when it cannot be known statically: symbolic sizes, unknown dtype,
// negative values, or a product beyond 64 bits.
std::optional<std::uint64_t> required_storage_bytes(const ir::TensorMeta& meta);

// Whether a record of `record_bytes` can hold the tensor, and why not in words.
struct RecordFit {
  bool fits = true;
  std::string problem;  // when !fits
};
RecordFit check_record_fits(std::uint64_t record_bytes, const ir::TensorMeta& meta);

}  // namespace pt2lint
