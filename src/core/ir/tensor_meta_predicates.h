// Comparisons of tensor metadata (ir::TensorMeta, ir::SymInt, ir::Device), one definition
// each, for every layer that asks whether two values have the same shape, strides or device,
// or whether a layout is row-major.
#pragma once

#include "program.pb.h"

namespace pt2lint {

// Integers by value, symbolic sizes by expression (`s0 + 1`); the hint, an example value the
// exporter saw, does not take part: one expression denotes one size. A SymInt with neither
// set is unknown and equals nothing, not even another unknown one.
bool same_sym_int(const ir::SymInt& a, const ir::SymInt& b);
// Position by position, with same_sym_int.
bool same_sizes(const ir::TensorMeta& a, const ir::TensorMeta& b);
bool same_strides(const ir::TensorMeta& a, const ir::TensorMeta& b);

// The same device, spelled the same: type and index, an index left out only matching another
// left out ("cuda" is not "cuda:0"). For deciding that an op converted nothing.
bool same_device(const ir::Device& a, const ir::Device& b);
// Devices that may be one: the same type, and an index left out ("the current device")
// matching any index. For reporting a mismatch only when it is certain.
bool compatible_devices(const ir::Device& a, const ir::Device& b);

// Whether the strides are the row-major strides of the sizes, judged only when every size and
// stride is an integer (a size of 1 takes any stride).
enum class Contiguity { kContiguous, kNonContiguous, kUnknown };
Contiguity contiguity(const ir::TensorMeta& meta);

}  // namespace pt2lint
