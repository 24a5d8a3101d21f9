// PT207 value-defined-before-use: every value read is a graph input or an earlier node's output.
// docs/rules/value-defined-before-use.md
#include <fmt/format.h>

#include <unordered_map>

#include "analysis/program_index.h"
#include "core/rule.h"
#include "core/rule_catalogue.h"
#include "rules/common/graph_helpers.h"
#include "rules/common/signature_helpers.h"
#include "support/edit_distance.h"

namespace pt2lint {
namespace {

class ValueDefinedBeforeUse final : public Rule {
 public:
  const RuleInfo& info() const override { return kValueDefinedBeforeUse; }
  void check(const ProgramIndex& index, DiagnosticSink& sink) const override;
};

constexpr std::string_view kLoadFails =
    "torch.export.load rebuilds the graph in order and looks every argument up among the "
    "values built so far, so it fails on this file";

// Where each name of one graph is first defined: -1 for a graph input, n for node n. The top
// level answers from the ProgramIndex, which already maps every name; subgraphs build a map.
class Definitions {
 public:
  explicit Definitions(const ProgramIndex& index) : index_(&index), graph_(&index.graph()) {}
  explicit Definitions(const ir::Graph& graph) : graph_(&graph) {
    local_.reserve(static_cast<std::size_t>(graph.inputs_size() + graph.nodes_size()) * 2);
    std::vector<std::string_view> names;
    for (const ir::Argument& input : graph.inputs()) collect_value_names(input, names);
    for (std::string_view name : names) local_.try_emplace(name, -1);
    for (int n = 0; n < graph.nodes_size(); ++n) {
      names.clear();
      for (const ir::Argument& output : graph.nodes(n).outputs()) collect_value_names(output, names);
      for (std::string_view name : names) local_.try_emplace(name, n);
    }
  }

  std::optional<int> first(std::string_view name) const {
    if (index_ != nullptr) {
      std::optional<ValueDef> def = index_->definition(name);
      if (!def) return std::nullopt;
      return def->placeholder >= 0 ? -1 : def->node;
    }
    auto it = local_.find(name);
    if (it == local_.end()) return std::nullopt;
    return it->second;
  }
  bool contains(std::string_view name) const { return first(name).has_value(); }

  // Every defined name, for "did you mean" (rare, so built on demand).
  std::vector<std::string_view> names() const {
    std::vector<std::string_view> all;
    for (const ir::Argument& input : graph_->inputs()) collect_value_names(input, all);
    for (const ir::Node& node : graph_->nodes())
      for (const ir::Argument& output : node.outputs()) collect_value_names(output, all);
    return all;
  }

 private:
  const ProgramIndex* index_ = nullptr;
  const ir::Graph* graph_;
  std::unordered_map<std::string_view, int> local_;
};

// Checks one graph (top level or a subgraph, each its own scope) in node order.
class ScopeChecker {
 public:
  ScopeChecker(const ProgramIndex& index, DiagnosticSink& sink, const RuleInfo& info)
      : index_(index), sink_(sink), info_(info) {}

  // Checks `graph` against `defined`, the definitions of that same graph.
  void check(const ir::Graph& graph, const Definitions& defined, const GraphScope& scope) {
    std::vector<std::string_view> names;
    for (int n = 0; n < graph.nodes_size(); ++n) {
      const ir::Node& node = graph.nodes(n);
      names.clear();
      for (const ir::NamedArgument& input : node.inputs()) collect_value_names(input.arg(), names);
      for (std::string_view name : names) {
        std::optional<int> first = defined.first(name);
        if (!first || *first >= n)
          report_node_read(graph, n, name, first.value_or(-2), defined, scope);
      }
      check_subgraphs(node, scope);
    }
  }

  // The top-level graph. The index already knows whether any node reads a value before it
  // is defined; when none does (the usual case) only the subgraphs, separate scopes, need a
  // walk, and the findings are the same as walking every node.
  void check_top_level(const Definitions& defined) {
    if (!index_.ssa_facts().reads_defined) {
      check(index_.graph(), defined, GraphScope{});
      return;
    }
    for (int n : index_.subgraph_nodes()) check_subgraphs(index_.graph().nodes(n), GraphScope{});
  }

  void check_top_level_outputs(const Definitions& defined) {
    const std::vector<std::string_view>& outputs = index_.output_names();
    const auto& specs = index_.signature().output_specs();
    for (int i = 0; i < static_cast<int>(outputs.size()); ++i) {
      if (outputs[i].empty() || defined.contains(outputs[i])) continue;
      InFlightFinding finding = emit(
          sink_, info_, index_.name(),
          fmt::format("graph output {} names `{}`, which no graph input or node defines", i,
                      outputs[i]));
      finding.at_output_spec(i).at_value(std::string(outputs[i]));
      suggest(finding, outputs[i], defined);
      finding.note(std::string(kLoadFails))
          .fix(fmt::format("return the value that was meant instead of `{}`", outputs[i]));
    }
    for (int i = 0; i < specs.size(); ++i) {
      std::string_view name = output_spec_arg_name(specs[i]);
      bool same_as_output = i < static_cast<int>(outputs.size()) && outputs[i] == name;
      if (name.empty() || defined.contains(name) || same_as_output) continue;
      InFlightFinding finding = emit(
          sink_, info_, index_.name(),
          fmt::format("output_specs[{}] ({}) names `{}`, which no graph input or node defines",
                      i, describe_output_spec(specs[i]), name));
      finding.at_output_spec(i).at_value(std::string(name));
      suggest(finding, name, defined);
      finding.note(std::string(kLoadFails))
          .fix(fmt::format("name the value graph output {} returns", i));
    }
  }

 private:
  // `producer`: the node that defines `name` at or after node n, or -2 when nothing does.
  void report_node_read(const ir::Graph& graph, int n, std::string_view name, int producer,
                        const Definitions& defined, const GraphScope& scope) {
    const ir::Node& node = graph.nodes(n);
    std::string_view node_name = fx_node_name(node);
    std::string location = scope.top_level_node.empty() ? std::string(node_name)
                                                        : scope.top_level_node;
    if (producer >= 0) {
      std::string_view producer_name = fx_node_name(graph.nodes(producer));
      emit(sink_, info_, index_.name(),
           fmt::format("node `{}` (position {}){} reads `{}` before node `{}` (position {}) "
                       "defines it",
                       node_name, n, scope.description, name, producer_name, producer))
          .at_node(location)
          .at_value(std::string(name))
          .op(node.target())
          .note(std::string(kLoadFails))
          .fix(fmt::format("move node `{}` before node `{}`: nodes must be in topological order",
                           producer_name, node_name));
      return;
    }
    InFlightFinding finding =
        emit(sink_, info_, index_.name(),
             fmt::format("node `{}` (position {}){} reads `{}`, which no graph input or node "
                         "defines",
                         node_name, n, scope.description, name));
    finding.at_node(location).at_value(std::string(name)).op(node.target());
    suggest(finding, name, defined);
    finding.note(std::string(kLoadFails))
        .fix(fmt::format("read a value defined before node `{}`, or add the node that produces "
                         "`{}`",
                         node_name, name));
  }

  void check_subgraphs(const ir::Node& node, const GraphScope& scope) {
    if (scope.depth >= kMaxSubgraphDepth) return;
    for (const Subgraph& subgraph : subgraphs_of(node)) {
      GraphScope inner_scope = scope.enter(subgraph, fx_node_name(node));
      Definitions inner(*subgraph.graph);
      check(*subgraph.graph, inner, inner_scope);
      check_subgraph_outputs(*subgraph.graph, inner, inner_scope);
    }
  }

  void check_subgraph_outputs(const ir::Graph& graph, const Definitions& defined,
                              const GraphScope& scope) {
    std::vector<std::string_view> names;
    for (const ir::Argument& output : graph.outputs()) collect_value_names(output, names);
    for (std::string_view name : names) {
      if (defined.contains(name)) continue;
      emit(sink_, info_, index_.name(),
           fmt::format("an output{} names `{}`, which nothing in that subgraph defines",
                       scope.description, name))
          .at_node(scope.top_level_node)
          .at_value(std::string(name))
          .note(std::string(kLoadFails))
          .fix("return a value the subgraph defines; subgraphs only see their own inputs");
    }
  }

  // "did you mean" over what is defined. Each costs a pass over every name, so only the
  // first few findings get one: a graph with thousands of bad reads stays linear.
  void suggest(InFlightFinding& finding, std::string_view name, const Definitions& defined) {
    if (suggestions_left_ == 0) return;
    --suggestions_left_;
    std::string closest = closest_match(name, defined.names());
    if (!closest.empty()) finding.note(fmt::format("did you mean `{}`?", closest));
  }

  const ProgramIndex& index_;
  DiagnosticSink& sink_;
  const RuleInfo& info_;
  int suggestions_left_ = 16;
};

}  // namespace

void ValueDefinedBeforeUse::check(const ProgramIndex& index, DiagnosticSink& sink) const {
  ScopeChecker checker(index, sink, kValueDefinedBeforeUse);
  Definitions defined(index);
  checker.check_top_level(defined);
  checker.check_top_level_outputs(defined);
}

std::unique_ptr<Rule> make_ValueDefinedBeforeUse() { return std::make_unique<ValueDefinedBeforeUse>(); }

}  // namespace pt2lint
