// Answers the questions rules ask about one program: who produces a value, who reads it,
// which spec describes a placeholder, where a spec sits. Built once per program; it
// borrows the program, which must outlive it and stay unmodified.
#pragma once

#include <optional>
#include <string>
#include <string_view>
#include <unordered_map>
#include <vector>

#include "program.pb.h"

namespace pt2lint {

enum class Dialect { kUnknown, kTraining, kAten, kOther };

std::string_view dialect_name(Dialect dialect);

// Every value name an Argument refers to (tensors, sym values, tokens, custom objects).
void collect_value_names(const ir::Argument& argument, std::vector<std::string_view>& out);
// The single value name a graph input/output Argument names, or "" for a constant.
std::string_view argument_value_name(const ir::Argument& argument);

// Accessors over the InputSpec / OutputSpec unions.
std::string_view input_spec_kind(const ir::InputSpec& spec);    // "buffer", "user_input", ...
std::string_view input_spec_arg_name(const ir::InputSpec& spec);  // placeholder the spec names
std::string_view input_spec_target(const ir::InputSpec& spec);    // FQN, or "" for user inputs
std::string_view output_spec_kind(const ir::OutputSpec& spec);
std::string_view output_spec_arg_name(const ir::OutputSpec& spec);  // "" for constant outputs
std::string_view output_spec_target(const ir::OutputSpec& spec);    // "" when it has none
bool is_mutation_output(const ir::OutputSpec& spec);  // buffer/parameter/user-input mutation

// A value is defined either by graph input `placeholder` or by output of node `node`.
struct ValueDef {
  int placeholder = -1;  // index into graph.inputs
  int node = -1;         // index into graph.nodes
};

class ProgramIndex {
 public:
  explicit ProgramIndex(const ir::Program& program);

  const ir::Program& program() const { return program_; }
  const std::string& name() const { return program_.name(); }
  const ir::ExportedProgram& exported() const { return program_.program(); }
  const ir::Graph& graph() const { return program_.program().graph_module().graph(); }
  const ir::GraphSignature& signature() const {
    return program_.program().graph_module().signature();
  }
  Dialect dialect() const { return dialect_; }

  // Values.
  std::optional<ValueDef> definition(std::string_view value) const;  // first definition
  int definition_count(std::string_view value) const;
  const std::vector<int>& users(std::string_view value) const;  // node indices, in order
  const ir::TensorMeta* tensor_meta(std::string_view value) const;
  bool has_sym_value(std::string_view value) const;

  // Placeholders and specs.
  const std::vector<std::string_view>& placeholder_names() const { return placeholders_; }
  const std::vector<std::string_view>& output_names() const { return outputs_; }
  std::optional<int> input_spec_index(std::string_view placeholder) const;  // by arg name
  const ir::InputSpec* input_spec_for(std::string_view placeholder) const;
  std::optional<int> input_spec_by_target(std::string_view kind, std::string_view fqn) const;

  // Node lookups.
  std::optional<int> node_by_name(std::string_view node_name) const;
  // The FX node name: Node.name when present, else its first output's name.
  std::string_view node_name(int node) const;
  std::string_view node_metadata(int node, std::string_view key) const;  // "" when absent

 private:
  const ir::Program& program_;
  Dialect dialect_ = Dialect::kUnknown;
  std::vector<std::string_view> placeholders_;
  std::vector<std::string_view> outputs_;
  std::unordered_map<std::string_view, ValueDef> definitions_;
  std::unordered_map<std::string_view, int> definition_counts_;
  std::unordered_map<std::string_view, std::vector<int>> users_;
  std::unordered_map<std::string_view, const ir::TensorMeta*> tensor_meta_;
  std::unordered_map<std::string_view, int> sym_values_;
  std::unordered_map<std::string_view, int> input_spec_by_arg_;
  std::unordered_map<std::string, int> input_spec_by_target_;  // "kind:fqn"
  std::unordered_map<std::string_view, int> node_by_name_;
};

}  // namespace pt2lint
