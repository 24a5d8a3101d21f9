#include "analysis/state/framework_buffers.h"

#include <array>

#include "analysis/program_index.h"

namespace pt2lint {
namespace {

// The `_NormBase` family: torch.nn's batch and instance norms and the subclasses timm
// builds its fused norm-activation layers from.
constexpr std::array<std::string_view, 13> kNormBaseClasses = {
    "torch.nn.modules.batchnorm.BatchNorm1d",     "torch.nn.modules.batchnorm.BatchNorm2d",
    "torch.nn.modules.batchnorm.BatchNorm3d",     "torch.nn.modules.batchnorm.SyncBatchNorm",
    "torch.nn.modules.batchnorm.LazyBatchNorm1d", "torch.nn.modules.batchnorm.LazyBatchNorm2d",
    "torch.nn.modules.batchnorm.LazyBatchNorm3d", "torch.nn.modules.instancenorm.InstanceNorm1d",
    "torch.nn.modules.instancenorm.InstanceNorm2d", "torch.nn.modules.instancenorm.InstanceNorm3d",
    "timm.layers.norm_act.BatchNormAct2d",        "timm.layers.norm_act.SyncBatchNormAct",
    "timm.models.layers.norm_act.BatchNormAct2d"};

bool ends_with(std::string_view text, std::string_view suffix) {
  return text.size() >= suffix.size() && text.substr(text.size() - suffix.size()) == suffix;
}

bool is_norm_base(std::string_view module_class) {
  for (std::string_view known : kNormBaseClasses)
    if (module_class == known) return true;
  return false;
}

bool is_transformers_rotary(std::string_view module_class) {
  return module_class.starts_with("transformers.") && ends_with(module_class, "RotaryEmbedding");
}

}  // namespace

bool framework_buffer(std::string_view module_class, std::string_view buffer_name) {
  // It counts training steps: a training-mode forward increments it (and reads it only when
  // momentum is None); an eval-mode forward never touches it.
  if (buffer_name == "num_batches_tracked") return is_norm_base(module_class);
  // Kept to restore inv_freq after dynamic RoPE scaling; default and static RoPE never read it.
  if (buffer_name == "original_inv_freq") return is_transformers_rotary(module_class);
  return false;
}

ModuleClasses::ModuleClasses(const ProgramIndex& index) {
  // "key,path,class;key,path,class": outermost module first.
  for (int n = 0; n < index.graph().nodes_size(); ++n) {
    std::string_view stack = index.node_metadata(n, "nn_module_stack");
    while (!stack.empty()) {
      const std::size_t end = std::min(stack.find(';'), stack.size());
      std::string_view entry = stack.substr(0, end);
      stack.remove_prefix(std::min(end + 1, stack.size()));
      const std::size_t first = entry.find(',');
      const std::size_t last = entry.rfind(',');
      if (first == std::string_view::npos || first == last) continue;
      classes_.try_emplace(entry.substr(first + 1, last - first - 1), entry.substr(last + 1));
    }
  }
}

std::string_view ModuleClasses::class_of(std::string_view module_path) const {
  auto it = classes_.find(module_path);
  return it == classes_.end() ? std::string_view() : it->second;
}

bool framework_buffer_of(const ModuleClasses& modules, std::string_view fqn) {
  const std::size_t dot = fqn.rfind('.');
  std::string_view path = dot == std::string_view::npos ? std::string_view() : fqn.substr(0, dot);
  std::string_view own = dot == std::string_view::npos ? fqn : fqn.substr(dot + 1);
  return framework_buffer(modules.class_of(path), own);
}

}  // namespace pt2lint
