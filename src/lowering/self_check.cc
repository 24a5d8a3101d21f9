#include "lowering/self_check.h"

#include <fmt/format.h>

#include "analysis/dataflow/subgraph_calls.h"
#include "core/diagnostic_sink.h"
#include "core/rule_registry.h"
#include "engine/engine.h"
#include "rules/register_all_rules.h"

namespace pt2lint::lowering {

Status self_check(const ir::Program& lowered, const opschema::SchemaCatalog* schemas) {
  const std::vector<std::string> writers =
      dataflow::mutating_nodes_anywhere(lowered.program().graph_module().graph());
  if (!writers.empty()) {
    return Status::error(fmt::format("the lowered program still contains a mutating op: {}{}", writers.front(),
                                     writers.size() > 1 ? fmt::format(" (and {} more)", writers.size() - 1) : ""));
  }
  RuleRegistry registry;
  register_all_rules(registry);
  const Engine engine(registry, RuleFilter{}, OpKnowledge{schemas, false});
  CollectingSink sink;
  engine.check_program(lowered, sink);
  for (const Finding& finding : sink.findings()) {
    if (finding.severity != Severity::kError) continue;
    return Status::error(fmt::format("the lowered program fails `check`: {} [{} {}]", finding.message,
                                     finding.rule_id, finding.rule_name));
  }
  return {};
}

}  // namespace pt2lint::lowering
