#include "rules/common/graph_helpers.h"

#include <fmt/format.h>

#include "analysis/program_index.h"

namespace pt2lint {

std::vector<Subgraph> subgraphs_of(const ir::Node& node) {
  std::vector<Subgraph> found;
  for (const ir::NamedArgument& input : node.inputs()) {
    if (input.arg().has_as_graph()) {
      const ir::GraphArgument& graph = input.arg().as_graph();
      found.push_back({graph.name(), &graph.graph()});
    }
  }
  return found;
}

GraphScope GraphScope::enter(const Subgraph& subgraph, std::string_view owner_node) const {
  GraphScope inner;
  inner.description = fmt::format(" in subgraph `{}` of node `{}`{}", subgraph.name, owner_node,
                                  description);
  inner.top_level_node = top_level_node.empty() ? std::string(owner_node) : top_level_node;
  inner.depth = depth + 1;
  return inner;
}

}  // namespace pt2lint
