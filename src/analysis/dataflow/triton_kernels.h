// User Triton kernels in exported programs (PyTorch 2.11, torch/_higher_order_ops/triton_kernel_wrap.py,
// measured in tests/data/device/soundness/):
//
//   TRAINING: triton_kernel_wrapper_mutation(kernel_idx=, constant_args_idx=, grid=,
//             tma_descriptor_metadata=, kwargs={param: value, ...}) writes some of its tensor
//             kwargs in place. The file does not say which, and names the kernel only by an
//             index into the exporting process's kernel table.
//   ATEN:     triton_kernel_wrapper_functional(<args in kernel order>..., name=, grid=,
//             output_indices=[...], kernel_param_names=[...], ...): output k is the new value of
//             the positional argument output_indices[k], as auto_functionalized_v2's outputs
//             are the new values of its bases.
//
// A user declares what a kernel writes as an op schema of namespace `triton` named after the
// kernel, in an --op-schemas file: `triton::add_kernel(Tensor(a!) out_ptr, Tensor x_ptr, int n) -> ()`.
// A TRAINING launch runs that kernel when every parameter it passes is a parameter of the
// declaration; when several declarations fit, their writes are merged.
#pragma once

#include <cstdint>
#include <optional>
#include <string>
#include <string_view>
#include <utility>
#include <vector>

#include "analysis/dataflow/auto_functionalized.h"
#include "program.pb.h"

namespace pt2lint {

namespace opschema {
class SchemaCatalog;
}

namespace dataflow {

bool is_triton_mutation(std::string_view target);
bool is_triton_functional(std::string_view target);

// The namespace of kernel declarations in an --op-schemas file.
inline constexpr std::string_view kTritonNamespace = "triton";

struct TritonLaunch {
  std::int64_t kernel_idx = -1;  // TRAINING: the process-local kernel index, or -1
  std::string_view kernel_name;  // ATEN `name`, "" in TRAINING
  // Every parameter the launch passes, in order, with the tensor passed ("" for a non-tensor).
  std::vector<std::pair<std::string_view, std::string_view>> params;
};

// Either form; an empty `params` when the node records none.
TritonLaunch decode_triton_launch(const ir::Node& node);

// The parameters the user's `triton::` declarations say the launch's kernel writes, or nullopt
// when no declaration fits it.
std::optional<std::vector<std::string>> declared_triton_writes(const TritonLaunch& launch,
                                                               const opschema::SchemaCatalog* schemas);

// triton_kernel_wrapper_functional as a functional call: update k is the new value of the
// argument output_indices[k]. Fails, saying why, when the encoding cannot be read.
Expected<AutoFunctionalizedCall> decode_triton_functional(const ir::Node& node);

}  // namespace dataflow
}  // namespace pt2lint
