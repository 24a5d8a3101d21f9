#include "rules/structural/value_defined_before_use.h"

#include <fmt/format.h>

#include <unordered_map>
#include <unordered_set>

#include "rules/structural/graph_helpers.h"
#include "rules/structural/signature_helpers.h"
#include "verifier/edit_distance.h"
#include "verifier/program_index.h"

namespace pt2lint {
namespace {

constexpr std::string_view kLoadFails =
    "torch.export.load rebuilds the graph in order and looks every argument up among the "
    "values built so far, so it fails on this file";

// Checks one graph (top level or a subgraph, each its own scope) in node order.
class ScopeChecker {
 public:
  ScopeChecker(const ProgramIndex& index, DiagnosticSink& sink, const RuleInfo& info)
      : index_(index), sink_(sink), info_(info) {}

  // Returns the names defined in `graph` (inputs and node outputs), for the caller's checks of
  // what reads the graph's results.
  std::unordered_set<std::string_view> check(const ir::Graph& graph, const GraphScope& scope) {
    std::unordered_set<std::string_view> defined;
    std::vector<std::string_view> names;
    for (const ir::Argument& input : graph.inputs()) collect_value_names(input, names);
    defined.insert(names.begin(), names.end());

    // Where each value is (first) produced, to tell "defined later" from "never defined".
    std::unordered_map<std::string_view, int> producer;
    for (int n = 0; n < graph.nodes_size(); ++n) {
      names.clear();
      for (const ir::Argument& output : graph.nodes(n).outputs()) collect_value_names(output, names);
      for (std::string_view name : names) producer.try_emplace(name, n);
    }

    for (int n = 0; n < graph.nodes_size(); ++n) {
      const ir::Node& node = graph.nodes(n);
      names.clear();
      for (const ir::NamedArgument& input : node.inputs()) collect_value_names(input.arg(), names);
      for (std::string_view name : names) {
        if (!defined.count(name)) report_node_read(graph, n, name, producer, defined, scope);
      }
      names.clear();
      for (const ir::Argument& output : node.outputs()) collect_value_names(output, names);
      defined.insert(names.begin(), names.end());
      if (scope.depth < kMaxSubgraphDepth) {
        for (const Subgraph& subgraph : subgraphs_of(node)) {
          GraphScope inner_scope = scope.enter(subgraph, fx_node_name(node));
          std::unordered_set<std::string_view> inner = check(*subgraph.graph, inner_scope);
          check_subgraph_outputs(*subgraph.graph, inner, inner_scope);
        }
      }
    }
    return defined;
  }

  void check_top_level_outputs(const std::unordered_set<std::string_view>& defined) {
    const std::vector<std::string_view>& outputs = index_.output_names();
    const auto& specs = index_.signature().output_specs();
    for (int i = 0; i < static_cast<int>(outputs.size()); ++i) {
      if (outputs[i].empty() || defined.count(outputs[i])) continue;
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
      if (name.empty() || defined.count(name) || same_as_output) continue;
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
  void report_node_read(const ir::Graph& graph, int n, std::string_view name,
                        const std::unordered_map<std::string_view, int>& producer,
                        const std::unordered_set<std::string_view>& defined,
                        const GraphScope& scope) {
    const ir::Node& node = graph.nodes(n);
    std::string_view node_name = fx_node_name(node);
    std::string location = scope.top_level_node.empty() ? std::string(node_name)
                                                        : scope.top_level_node;
    auto later = producer.find(name);
    if (later != producer.end()) {
      std::string_view producer_name = fx_node_name(graph.nodes(later->second));
      emit(sink_, info_, index_.name(),
           fmt::format("node `{}` (position {}){} reads `{}` before node `{}` (position {}) "
                       "defines it",
                       node_name, n, scope.description, name, producer_name, later->second))
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

  void check_subgraph_outputs(const ir::Graph& graph,
                              const std::unordered_set<std::string_view>& defined,
                              const GraphScope& scope) {
    std::vector<std::string_view> names;
    for (const ir::Argument& output : graph.outputs()) collect_value_names(output, names);
    for (std::string_view name : names) {
      if (defined.count(name)) continue;
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
  void suggest(InFlightFinding& finding, std::string_view name,
               const std::unordered_set<std::string_view>& defined) {
    if (suggestions_left_ == 0) return;
    --suggestions_left_;
    std::vector<std::string_view> candidates(defined.begin(), defined.end());
    std::string closest = closest_match(name, candidates);
    if (!closest.empty()) finding.note(fmt::format("did you mean `{}`?", closest));
  }

  const ProgramIndex& index_;
  DiagnosticSink& sink_;
  const RuleInfo& info_;
  int suggestions_left_ = 16;
};

}  // namespace

void ValueDefinedBeforeUse::check(const ProgramIndex& index, DiagnosticSink& sink) const {
  ScopeChecker checker(index, sink, kInfo);
  std::unordered_set<std::string_view> defined = checker.check(index.graph(), GraphScope{});
  checker.check_top_level_outputs(defined);
}

}  // namespace pt2lint
