#include "analysis/dataflow/triton_kernels.h"

#include <algorithm>

#include "analysis/opschema/schema_catalog.h"
#include "core/ir/ir_accessors.h"

namespace pt2lint::dataflow {
namespace {

constexpr std::string_view kMutation = "torch.ops.higher_order.triton_kernel_wrapper_mutation";
constexpr std::string_view kFunctional = "torch.ops.higher_order.triton_kernel_wrapper_functional";

// Keyword inputs of the functional form that are not kernel parameters.
constexpr std::string_view kFunctionalKeywords[] = {
    "name", "grid", "output_indices", "tensors_to_clone", "num_warps", "num_stages", "num_ctas",
    "shared_memory_bytes", "kernel_param_names", "kernel_param_types", "kernel_idx", "constant_args_idx",
    "tma_descriptor_metadata", "kwargs"};

bool is_functional_keyword(std::string_view name) {
  return std::find(std::begin(kFunctionalKeywords), std::end(kFunctionalKeywords), name) !=
         std::end(kFunctionalKeywords);
}

std::string_view single_tensor(const ir::Argument& arg) {
  if (arg.has_as_tensor()) return arg.as_tensor().name();
  if (arg.has_as_optional_tensor() && arg.as_optional_tensor().has_as_tensor())
    return arg.as_optional_tensor().as_tensor().name();
  return {};
}

// The positional (kernel) arguments of the functional form, in order.
std::vector<const ir::NamedArgument*> kernel_arguments(const ir::Node& node) {
  std::vector<const ir::NamedArgument*> args;
  for (const ir::NamedArgument& input : node.inputs())
    if (!is_functional_keyword(input.name())) args.push_back(&input);
  return args;
}

std::vector<std::string_view> string_list(const ir::Argument* arg) {
  std::vector<std::string_view> out;
  if (arg != nullptr && arg->has_as_strings())
    for (const std::string& s : arg->as_strings().items()) out.push_back(s);
  return out;
}

}  // namespace

bool is_triton_mutation(std::string_view target) { return target == kMutation; }
bool is_triton_functional(std::string_view target) { return target == kFunctional; }

TritonLaunch decode_triton_launch(const ir::Node& node) {
  TritonLaunch launch;
  if (is_triton_mutation(node.target())) {
    if (const ir::Argument* idx = named_input(node, "kernel_idx"); idx && idx->has_as_int())
      launch.kernel_idx = idx->as_int();
    if (const ir::Argument* kwargs = named_input(node, "kwargs"); kwargs && kwargs->has_as_string_to_argument())
      for (const ir::StringToArgumentEntry& entry : kwargs->as_string_to_argument().items())
        launch.params.emplace_back(entry.key(), single_tensor(entry.value()));
    return launch;
  }
  if (!is_triton_functional(node.target())) return launch;
  if (const ir::Argument* name = named_input(node, "name"); name && name->has_as_string())
    launch.kernel_name = name->as_string();
  const std::vector<std::string_view> names = string_list(named_input(node, "kernel_param_names"));
  const std::vector<const ir::NamedArgument*> args = kernel_arguments(node);
  for (std::size_t i = 0; i < args.size(); ++i) {
    const std::string_view name = i < names.size() ? names[i] : std::string_view(args[i]->name());
    launch.params.emplace_back(name, single_tensor(args[i]->arg()));
  }
  return launch;
}

std::optional<std::vector<std::string>> declared_triton_writes(const TritonLaunch& launch,
                                                               const opschema::SchemaCatalog* schemas) {
  if (schemas == nullptr || launch.params.empty()) return std::nullopt;
  std::optional<std::vector<std::string>> writes;
  for (const opschema::OpSchema& schema : schemas->in_namespace(kTritonNamespace)) {
    if (!launch.kernel_name.empty() && schema.base_name() != launch.kernel_name) continue;
    const bool fits = std::all_of(launch.params.begin(), launch.params.end(), [&](const auto& param) {
      return schema.argument_index(param.first) >= 0;
    });
    if (!fits) continue;
    if (!writes) writes.emplace();
    for (const auto& arg : schema.arguments())
      if (arg.writes && std::find(writes->begin(), writes->end(), arg.name) == writes->end())
        writes->emplace_back(arg.name);
  }
  return writes;
}

Expected<AutoFunctionalizedCall> decode_triton_functional(const ir::Node& node) {
  if (!is_triton_functional(node.target())) {
    return Status::error("it is not a triton_kernel_wrapper_functional node");
  }
  const std::vector<const ir::NamedArgument*> args = kernel_arguments(node);
  const ir::Argument* indices = named_input(node, "output_indices");
  std::vector<int> written;
  if (indices != nullptr && indices->has_as_ints()) {
    for (std::int64_t i : indices->as_ints().items()) {
      if (i < 0 || i >= static_cast<std::int64_t>(args.size()) || single_tensor(args[i]->arg()).empty()) {
        return Status::error("`output_indices` names an argument that is not a tensor of the launch");
      }
      written.push_back(static_cast<int>(i));
    }
  } else {
    return Status::error("it has no `output_indices` list");
  }
  // One tensor output per written argument, in output_indices order.
  std::vector<std::string_view> outputs;
  for (const ir::Argument& out : node.outputs()) {
    if (out.has_as_tensor()) outputs.push_back(out.as_tensor().name());
    else if (out.has_as_tensors())
      for (const ir::TensorArgument& t : out.as_tensors().items()) outputs.push_back(t.name());
    else outputs.emplace_back();
  }
  if (outputs.size() != written.size()) {
    return Status::error("its outputs do not match `output_indices`");
  }
  const std::vector<std::string_view> names = string_list(named_input(node, "kernel_param_names"));
  AutoFunctionalizedCall call;
  call.version = AutoFunctionalizedVersion::kTriton;
  if (const ir::Argument* name = named_input(node, "name"); name && name->has_as_string())
    call.op_target = name->as_string();
  for (std::size_t k = 0; k < written.size(); ++k) {
    const int i = written[k];
    std::string param = i < static_cast<int>(names.size()) ? std::string(names[i]) : args[i]->name();
    if (!outputs[k].empty()) call.updates.push_back({outputs[k], single_tensor(args[i]->arg()), param});
    WrittenArgument w;
    w.name = param;
    w.argument = param;
    w.base_index = static_cast<int>(k);
    w.view = "base";
    call.written.push_back(std::move(w));
  }
  return call;
}

}  // namespace pt2lint::dataflow
