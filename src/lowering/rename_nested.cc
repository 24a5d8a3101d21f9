#include "lowering/rename_nested.h"

#include <set>
#include <string_view>

#include "io/writers/python_json_text.h"

namespace pt2lint::lowering {
namespace {

std::string flat_name(std::string_view fqn) {
  std::string out = "lifted_buf_";
  for (char c : fqn) out += c == '.' ? '_' : c;
  return out;
}

void collect_state_names(const ir::Program& program, std::set<std::string>& names) {
  for (const ir::InputSpec& spec : program.program().graph_module().signature().input_specs()) {
    if (spec.has_parameter()) names.insert(spec.parameter().parameter_name());
    if (spec.has_buffer()) names.insert(spec.buffer().buffer_name());
    if (spec.has_tensor_constant()) names.insert(spec.tensor_constant().tensor_constant_name());
    if (spec.has_custom_obj()) names.insert(spec.custom_obj().custom_obj_name());
  }
  for (const auto& entry : program.weights().config().config()) names.insert(entry.key());
  for (const auto& entry : program.constants().config().config()) names.insert(entry.key());
}

const std::string* find_rename(const Renames& renames, const std::string& name) {
  for (const auto& [from, to] : renames)
    if (from == name) return &to;
  return nullptr;
}

void rename_config(ir::StateSource& state, const Renames& renames) {
  for (ir::PayloadMetaEntry& entry : *state.mutable_config()->mutable_config()) {
    if (const std::string* to = find_rename(renames, entry.key())) entry.set_key(*to);
  }
}

std::string mapping_json(const Renames& renames) {
  std::string out = "{";
  for (std::size_t i = 0; i < renames.size(); ++i) {
    if (i > 0) out += ", ";
    append_json_string(out, renames[i].first);
    out += ": ";
    append_json_string(out, renames[i].second);
  }
  out += "}";
  return out;
}

}  // namespace

Renames plan_nested_buffer_renames(const ir::Program& program) {
  std::set<std::string> taken;
  collect_state_names(program, taken);
  Renames renames;
  for (const ir::InputSpec& spec : program.program().graph_module().signature().input_specs()) {
    if (!spec.has_buffer()) continue;
    const std::string& fqn = spec.buffer().buffer_name();
    if (fqn.find('.') == std::string::npos || find_rename(renames, fqn) != nullptr) continue;
    const std::string stem = flat_name(fqn);
    std::string name = stem;
    for (int suffix = 1; taken.count(name) != 0; ++suffix) name = stem + "_" + std::to_string(suffix);
    taken.insert(name);
    renames.emplace_back(fqn, name);
  }
  return renames;
}

void apply_renames(ir::Program& program, const Renames& renames, RenameScope scope) {
  ir::GraphSignature& signature = *program.mutable_program()->mutable_graph_module()->mutable_signature();
  if (scope.input_specs) {
    for (ir::InputSpec& spec : *signature.mutable_input_specs()) {
      if (!spec.has_buffer()) continue;
      if (const std::string* to = find_rename(renames, spec.buffer().buffer_name()))
        spec.mutable_buffer()->set_buffer_name(*to);
    }
  }
  if (scope.mutation_targets) {
    for (ir::OutputSpec& spec : *signature.mutable_output_specs()) {
      if (!spec.has_buffer_mutation()) continue;
      if (const std::string* to = find_rename(renames, spec.buffer_mutation().buffer_name()))
        spec.mutable_buffer_mutation()->set_buffer_name(*to);
    }
  }
  if (scope.state_entries) {
    rename_config(*program.mutable_weights(), renames);
    rename_config(*program.mutable_constants(), renames);
  }
}

void record_renames(ir::Program& program, const Renames& renames) {
  if (renames.empty()) return;
  auto& metadata = *program.mutable_program()->mutable_graph_module()->mutable_metadata();
  const std::string entry = std::string("\"") + kRenameMetadataKey + "\": " + mapping_json(renames);
  for (ir::StringEntry& item : metadata) {
    if (item.key() != "custom") continue;
    // `custom` is a JSON object written by PyTorch: the entry goes in after its brace.
    std::string text = item.value();
    const std::size_t brace = text.find('{');
    const std::size_t close = text.rfind('}');
    if (brace == std::string::npos || close == std::string::npos) break;
    const bool empty = text.find_first_not_of(" \t\r\n", brace + 1) == close;
    text.insert(brace + 1, empty ? entry : entry + ", ");
    item.set_value(std::move(text));
    return;
  }
  ir::StringEntry* item = metadata.Add();
  item->set_key("custom");
  item->set_value("{" + entry + "}");
}

}  // namespace pt2lint::lowering
