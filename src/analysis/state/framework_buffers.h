// Buffers that a framework module registers for one mode and that another mode never reads,
// such as BatchNorm's `num_batches_tracked` in eval mode. An exported program records each
// node's module class in its `nn_module_stack` metadata; this table, keyed by that class,
// says which of its buffers such a module may leave untouched. The table is documented in
// docs/rules/state-is-used.md.
#pragma once

#include <string_view>
#include <unordered_map>

namespace pt2lint {

class ProgramIndex;

// Whether buffer `buffer_name` of a module of class `module_class` (qualified, as
// nn_module_stack writes it) is in the table.
bool framework_buffer(std::string_view module_class, std::string_view buffer_name);

// Module path -> qualified class, from the nn_module_stack metadata of every node.
class ModuleClasses {
 public:
  explicit ModuleClasses(const ProgramIndex& index);
  std::string_view class_of(std::string_view module_path) const;  // "" when unknown

 private:
  std::unordered_map<std::string_view, std::string_view> classes_;
};

// Whether state `fqn` (module path, a dot, the buffer's own name) is in the table.
bool framework_buffer_of(const ModuleClasses& modules, std::string_view fqn);

}  // namespace pt2lint
