// PT208 value-names-unique: every value (and FX node) name is defined once per graph.
// docs/rules/value-names-unique.md
#include <fmt/format.h>

#include <algorithm>
#include <unordered_map>

#include "analysis/program_index.h"
#include "core/rule.h"
#include "core/rule_catalogue.h"
#include "rules/common/graph_helpers.h"

namespace pt2lint {
namespace {

class ValueNamesUnique final : public Rule {
 public:
  const RuleInfo& info() const override { return kValueNamesUnique; }
  void check(const ProgramIndex& index, DiagnosticSink& sink) const override;
};

// Who defined a name first: graph input `index` (when `is_input`) or node `index`.
struct Definer {
  bool is_input = false;
  int index = 0;
};

class UniquenessChecker {
 public:
  UniquenessChecker(const ProgramIndex& index, DiagnosticSink& sink, const RuleInfo& info)
      : index_(index), sink_(sink), info_(info) {}

  // FX gives every node one name, and a graph's placeholders, nodes and the values they
  // output share that namespace (a single-output node's name is its value's name).
  void check(const ir::Graph& graph, const GraphScope& scope) {
    std::unordered_map<std::string_view, Definer> first;
    first.reserve(static_cast<std::size_t>(graph.inputs_size() + graph.nodes_size()) * 2);
    std::vector<std::string_view> names;
    for (int i = 0; i < graph.inputs_size(); ++i) {
      names.clear();
      collect_value_names(graph.inputs(i), names);
      for (std::string_view name : names) define(graph, first, name, {true, i}, scope);
    }
    for (int n = 0; n < graph.nodes_size(); ++n) {
      const ir::Node& node = graph.nodes(n);
      names.clear();
      for (const ir::Argument& output : node.outputs()) collect_value_names(output, names);
      if (node.has_name() && !node.name().empty() &&
          std::find(names.begin(), names.end(), node.name()) == names.end())
        names.push_back(node.name());
      for (std::string_view name : names) define(graph, first, name, {false, n}, scope);
      check_subgraphs(node, scope);
    }
  }

  // The top-level graph. The index counts the same definitions in its own walk; when no name
  // is defined twice (the usual case) only the subgraphs, separate scopes, need a walk, and
  // the findings are the same as walking every node.
  void check_top_level() {
    if (!index_.ssa_facts().names_unique) {
      check(index_.graph(), GraphScope{});
      return;
    }
    for (int n : index_.subgraph_nodes()) check_subgraphs(index_.graph().nodes(n), GraphScope{});
  }

 private:
  void check_subgraphs(const ir::Node& node, const GraphScope& scope) {
    if (scope.depth >= kMaxSubgraphDepth) return;
    for (const Subgraph& subgraph : subgraphs_of(node))
      check(*subgraph.graph, scope.enter(subgraph, fx_node_name(node)));
  }

  static std::string words(const ir::Graph& graph, Definer definer) {
    if (definer.is_input) return fmt::format("graph input {}", definer.index);
    return fmt::format("node `{}` (position {})", fx_node_name(graph.nodes(definer.index)),
                       definer.index);
  }

  void define(const ir::Graph& graph, std::unordered_map<std::string_view, Definer>& first,
              std::string_view name, Definer definer, const GraphScope& scope) {
    auto [it, inserted] = first.try_emplace(name, definer);
    if (inserted) return;
    InFlightFinding finding = emit(
        sink_, info_, index_.name(),
        fmt::format("`{}` is defined twice{}: by {} and again by {}", name, scope.description,
                    words(graph, it->second), words(graph, definer)));
    std::string location = !scope.top_level_node.empty() ? scope.top_level_node
                           : definer.is_input            ? std::string()
                                              : std::string(fx_node_name(graph.nodes(definer.index)));
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
  UniquenessChecker(index, sink, kValueNamesUnique).check_top_level();
}

std::unique_ptr<Rule> make_ValueNamesUnique() { return std::make_unique<ValueNamesUnique>(); }

}  // namespace pt2lint
