#include "analysis/opschema/undeclared_writes.h"

namespace pt2lint::opschema {
namespace {

constexpr std::string_view kBatchNormKernel =
    "aten/src/ATen/native/Normalization.cpp: batch_norm_cpu_update_stats_template and "
    "batch_norm_cuda update running_mean/running_var in place when training";

constexpr UndeclaredWrite kUndeclaredWrites[] = {
    {"aten::batch_norm", "running_mean", "training",
     "corpus base/conv_bn_train.pt2 (batch_norm, training=True) vs conv_bn_train.aten.pt2, "
     "whose functionalization adds buffer_mutation outputs for 1.running_mean"},
    {"aten::batch_norm", "running_var", "training",
     "corpus base/conv_bn_train.pt2 vs conv_bn_train.aten.pt2 (buffer_mutation of "
     "1.running_var, 4.running_var)"},
    {"aten::native_batch_norm", "running_mean", "training", kBatchNormKernel},
    {"aten::native_batch_norm", "running_var", "training", kBatchNormKernel},
    {"aten::_batch_norm_impl_index", "running_mean", "training",
     "aten/src/ATen/native/Normalization.cpp: _batch_norm_impl_index dispatches to the "
     "native/cudnn/miopen kernels, which update the running statistics"},
    {"aten::_batch_norm_impl_index", "running_var", "training",
     "aten/src/ATen/native/Normalization.cpp: _batch_norm_impl_index (as above)"},
    {"aten::cudnn_batch_norm", "running_mean", "training",
     "aten/src/ATen/native/cudnn/BatchNorm.cpp: cudnnBatchNormalizationForwardTraining "
     "receives running_mean as its running-average output"},
    {"aten::cudnn_batch_norm", "running_var", "training",
     "aten/src/ATen/native/cudnn/BatchNorm.cpp (as above, running_var)"},
    {"aten::miopen_batch_norm", "running_mean", "training",
     "aten/src/ATen/native/miopen/BatchNorm_miopen.cpp: miopenBatchNormalizationForwardTraining "
     "updates running_mean"},
    {"aten::miopen_batch_norm", "running_var", "training",
     "aten/src/ATen/native/miopen/BatchNorm_miopen.cpp (as above, running_var)"},
    {"aten::instance_norm", "running_mean", "use_input_stats",
     "aten/src/ATen/native/Normalization.cpp: instance_norm copies the batch statistics back "
     "into running_mean (running_mean_.copy_(...)) when use_input_stats"},
    {"aten::instance_norm", "running_var", "use_input_stats",
     "aten/src/ATen/native/Normalization.cpp: instance_norm (as above, running_var)"},
};

}  // namespace

std::span<const UndeclaredWrite> undeclared_writes() { return kUndeclaredWrites; }

bool node_bool_argument(const ir::Node& node, std::string_view name, bool& value) {
  for (const ir::NamedArgument& input : node.inputs()) {
    if (input.name() != name) continue;
    if (!input.arg().has_as_bool()) return false;
    value = input.arg().as_bool();
    return true;
  }
  return false;
}

bool node_has_tensor_argument(const ir::Node& node, std::string_view name) {
  for (const ir::NamedArgument& input : node.inputs()) {
    if (input.name() != name) continue;
    return input.arg().has_as_tensor() ||
           (input.arg().has_as_optional_tensor() && input.arg().as_optional_tensor().has_as_tensor());
  }
  return false;
}

}  // namespace pt2lint::opschema
