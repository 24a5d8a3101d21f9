// The reference lowering's run (functionalize.h): every node in order, then the outputs, the
// graph and the call graph rebuilt, the program declared ATEN, and effect tokens threaded
// through a whole program. The steps are in functionalizer_*.cc (functionalizer.h).
#include "lowering/functionalize.h"

#include <string>
#include <utility>
#include <vector>

#include "analysis/program_index.h"
#include "lowering/argument_values.h"
#include "lowering/effect_tokens.h"
#include "lowering/functionalizer.h"

namespace pt2lint::lowering {

using opschema::OpSchema;

std::optional<OpSchema> schema_of(std::string_view target) {
  auto name = opschema::parse_serialized_target(target);
  return name ? opschema::find_schema(*name) : std::nullopt;
}

Functionalizer::Functionalizer(const ir::ExportedProgram& program,
                               const opschema::SchemaCatalog* schemas)
    : program_(program), graph_(program.graph_module().graph()), schemas_(schemas) {
  for (const ir::TensorMetaEntry& entry : graph_.tensor_values()) {
    meta_.emplace(entry.key(), entry.value());
    names_.reserve(entry.key());
  }
  for (const auto& entry : graph_.sym_int_values()) names_.reserve(entry.key());
  for (const auto& entry : graph_.sym_bool_values()) names_.reserve(entry.key());
  for (const auto& entry : graph_.sym_float_values()) names_.reserve(entry.key());
  for (const auto& entry : graph_.custom_obj_values()) names_.reserve(entry.key());
  for (const ir::Argument& input : graph_.inputs()) {
    std::string_view name = argument_value_name(input);
    if (!name.empty()) names_.reserve(name);
  }
  for (const ir::Node& node : graph_.nodes()) {
    if (node.has_name()) names_.reserve(node.name());
    for_each_output_tensor(node, [&](const std::string& name) { names_.reserve(name); });
    for (const ir::Argument& output : node.outputs()) {
      std::vector<std::string_view> values;
      collect_value_names(output, values);
      for (std::string_view value : values) names_.reserve(value);
    }
  }
}

// Throws LoweringError.
ir::ExportedProgram Functionalizer::run() {
  for (int i = 0; i < graph_.nodes_size(); ++i) process(i);
  ir::ExportedProgram out = program_;
  ir::GraphModule& module = *out.mutable_graph_module();
  assemble_outputs(module);
  rebuild_graph(*module.mutable_graph());
  rename_call_graph(module);
  out.clear_verifiers();
  out.add_verifiers("ATEN");
  out.clear_dialect();
  return out;
}

// The functionalizer refuses from deep inside its walk by throwing LoweringError
// (functionalizer.h); this is the boundary where that becomes the caller's Status.
Expected<Functionalized> functionalize(ir::Program& program, bool whole_program,
                                       const opschema::SchemaCatalog* schemas) {
  try {
    Functionalizer functionalizer(program.program(), schemas);
    ir::ExportedProgram lowered = functionalizer.run();
    if (whole_program) {
      if (Status threaded = thread_effect_tokens(lowered); !threaded.ok()) return threaded;
    }
    *program.mutable_program() = std::move(lowered);
    return Functionalized{functionalizer.rewritten()};
  } catch (const LoweringError& error) {
    return Status::error(error.message);
  }
}

}  // namespace pt2lint::lowering
