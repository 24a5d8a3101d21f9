#include "contract/learned_schemas.h"

#include <map>

#include "analysis/dataflow/auto_functionalized.h"
#include "analysis/opschema/schema_catalog.h"
#include "analysis/opschema/schema_template.h"

namespace pt2lint {

std::vector<LearnedSchema> learn_schemas(const std::vector<ir::Program>& programs,
                                         const std::vector<ir::Program>& twins,
                                         const opschema::SchemaCatalog* known) {
  std::map<std::string, std::vector<std::string>, std::less<>> writes;  // by op target
  for (const ir::Program& twin : twins) {
    for (const ir::Node& node : twin.program().graph_module().graph().nodes()) {
      auto call = dataflow::decode_auto_functionalized(node, known);
      if (!call.ok()) continue;
      std::vector<std::string>& names = writes[std::string(call->op_target)];
      for (std::string& name : dataflow::written_argument_names(*call))
        if (std::find(names.begin(), names.end(), name) == names.end()) names.push_back(std::move(name));
    }
  }
  std::vector<LearnedSchema> learned;
  for (const ir::Program& program : programs) {
    for (const ir::Node& node : program.program().graph_module().graph().nodes()) {
      auto found = writes.find(node.target());
      if (found == writes.end() || found->second.empty()) continue;
      auto name = opschema::parse_serialized_target(node.target());
      if (!name || opschema::lookup_schema(*name, known).schema) continue;
      bool seen = false;
      for (const LearnedSchema& l : learned) seen = seen || l.op == node.target();
      if (seen) continue;
      learned.push_back({node.target(), found->second, opschema::schema_template(node, found->second)});
    }
  }
  return learned;
}

}  // namespace pt2lint
