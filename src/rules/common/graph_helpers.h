// Graph-level helpers for rules that walk a Graph directly instead of through the
// ProgramIndex: the index covers the top-level graph only, while the SSA rules also descend
// into higher-order-op subgraphs, which are separate scopes.
#pragma once

#include <string>
#include <string_view>
#include <vector>

#include "core/ir/ir_accessors.h"  // fx_node_name
#include "program.pb.h"

namespace pt2lint {

// How deep the SSA rules follow nested subgraphs (cond inside while_loop inside ...).
// Real programs nest a few levels; the bound keeps a hostile file from exhausting the stack.
inline constexpr int kMaxSubgraphDepth = 32;

// A higher-order op's body: an `as_graph` argument of a node.
struct Subgraph {
  std::string_view name;  // GraphArgument.name, e.g. "true_graph_0"
  const ir::Graph* graph = nullptr;
};

std::vector<Subgraph> subgraphs_of(const ir::Node& node);

// Where a finding inside a graph sits, for messages: "" at top level, else
// " in subgraph `body_graph_0` of node `while_loop`".
struct GraphScope {
  std::string description;     // as above
  std::string top_level_node;  // the top-level node that owns the subgraph chain, "" at top
  int depth = 0;

  GraphScope enter(const Subgraph& subgraph, std::string_view owner_node) const;
};

}  // namespace pt2lint
