#include "rules/structural/value_names_unique.h"

#include <fmt/format.h>

#include <algorithm>
#include <unordered_map>

#include "rules/structural/graph_helpers.h"
#include "verifier/program_index.h"

namespace pt2lint {
namespace {

// Who defined a name first, in words: "graph input 2" or "node `add` (position 4)".
struct Definer {
  std::string words;
};

class UniquenessChecker {
 public:
  UniquenessChecker(const ProgramIndex& index, DiagnosticSink& sink, const RuleInfo& info)
      : index_(index), sink_(sink), info_(info) {}

  // FX gives every node one name, and a graph's placeholders, nodes and the values they
  // output share that namespace (a single-output node's name is its value's name).
  void check(const ir::Graph& graph, const GraphScope& scope) {
    std::unordered_map<std::string_view, Definer> first;
    std::vector<std::string_view> names;
    for (int i = 0; i < graph.inputs_size(); ++i) {
      names.clear();
      collect_value_names(graph.inputs(i), names);
      for (std::string_view name : names)
        define(first, name, fmt::format("graph input {}", i), "", scope);
    }
    for (int n = 0; n < graph.nodes_size(); ++n) {
      const ir::Node& node = graph.nodes(n);
      std::string_view node_name = fx_node_name(node);
      std::string words = fmt::format("node `{}` (position {})", node_name, n);
      names.clear();
      for (const ir::Argument& output : node.outputs()) collect_value_names(output, names);
      if (node.has_name() && !node.name().empty() &&
          std::find(names.begin(), names.end(), node.name()) == names.end())
        names.push_back(node.name());
      for (std::string_view name : names) define(first, name, words, node_name, scope);
      if (scope.depth >= kMaxSubgraphDepth) continue;
      for (const Subgraph& subgraph : subgraphs_of(node))
        check(*subgraph.graph, scope.enter(subgraph, node_name));
    }
  }

 private:
  void define(std::unordered_map<std::string_view, Definer>& first, std::string_view name,
              const std::string& words, std::string_view node_name, const GraphScope& scope) {
    auto [it, inserted] = first.try_emplace(name, Definer{words});
    if (inserted) return;
    InFlightFinding finding = emit(
        sink_, info_, index_.name(),
        fmt::format("`{}` is defined twice{}: by {} and again by {}", name, scope.description,
                    it->second.words, words));
    std::string location = !scope.top_level_node.empty() ? scope.top_level_node
                                                          : std::string(node_name);
    if (!location.empty()) finding.at_node(location);
    finding.at_value(std::string(name))
        .note(fmt::format("torch.export.load rejects this file (\"Node {} has already been "
                          "deserialized before.\"); and every reader that resolves names "
                          "would pick one of the two definitions arbitrarily",
                          name))
        .fix(fmt::format("give the second definition of `{}` a fresh name and update its uses",
                         name));
  }

  const ProgramIndex& index_;
  DiagnosticSink& sink_;
  const RuleInfo& info_;
};

}  // namespace

void ValueNamesUnique::check(const ProgramIndex& index, DiagnosticSink& sink) const {
  UniquenessChecker(index, sink, kInfo).check(index.graph(), GraphScope{});
}

}  // namespace pt2lint
