// Tensor metadata in words, for messages: "(1, 16, 4096) float32". Comparisons of metadata
// are in core/ir/tensor_meta_predicates.h.
#pragma once

#include <string>
#include <string_view>

#include "program.pb.h"

namespace pt2lint::dataflow {

std::string_view dtype_name(int dtype);  // serialized ScalarType code -> "float32"
std::string shape_text(const ir::TensorMeta& meta);  // "(1, 16, s0)"
std::string device_text(const ir::Device& device);   // "cpu", "cuda:0"
std::string meta_text(const ir::TensorMeta& meta);   // "(1, 16, 4096) float32"

}  // namespace pt2lint::dataflow
