// PT209 value-has-metadata: every tensor and symbolic value has an entry in the graph's value
// tables.
// docs/rules/value-has-metadata.md
#include <fmt/format.h>

#include <unordered_set>

#include "analysis/program_index.h"
#include "core/rule.h"
#include "core/rule_catalogue.h"
#include "rules/common/graph_helpers.h"

namespace pt2lint {
namespace {

class ValueHasMetadata final : public Rule {
 public:
  const RuleInfo& info() const override { return kValueHasMetadata; }
  void check(const ProgramIndex& index, DiagnosticSink& sink) const override;
};

// Past this many findings the rest are summed up in one: a writer that drops the whole table
// is one defect, and thousands of identical lines would bury everything else.
constexpr int kMaxIndividualFindings = 20;

// The names in each value table of one graph. The top-level tables are already indexed by
// the ProgramIndex; subgraphs get sets of their own.
class ValueTables {
 public:
  ValueTables(const ir::Graph& graph, const ProgramIndex* top_level) : top_level_(top_level) {
    if (top_level_ != nullptr) return;
    for (const auto& e : graph.tensor_values()) tensors_.insert(e.key());
    for (const auto& e : graph.sym_int_values()) sym_ints_.insert(e.key());
    for (const auto& e : graph.sym_bool_values()) sym_bools_.insert(e.key());
    for (const auto& e : graph.sym_float_values()) sym_floats_.insert(e.key());
  }
  bool has(const TypedValue& value) const {
    if (top_level_ != nullptr) return top_level_->has_metadata(value.name, value.table);
    switch (value.table) {
      case ValueTable::kTensor: return tensors_.count(value.name) != 0;
      case ValueTable::kSymInt: return sym_ints_.count(value.name) != 0;
      case ValueTable::kSymBool: return sym_bools_.count(value.name) != 0;
      case ValueTable::kSymFloat: return sym_floats_.count(value.name) != 0;
    }
    return false;
  }

 private:
  const ProgramIndex* top_level_;
  std::unordered_set<std::string_view> tensors_, sym_ints_, sym_bools_, sym_floats_;
};

class MetadataChecker {
 public:
  MetadataChecker(const ProgramIndex& index, DiagnosticSink& sink, const RuleInfo& info)
      : index_(index), sink_(sink), info_(info) {}

  void check(const ir::Graph& graph, const GraphScope& scope) {
    ValueTables tables(graph, scope.depth == 0 ? &index_ : nullptr);
    std::vector<TypedValue> values;
    for (int i = 0; i < graph.inputs_size(); ++i) {
      values.clear();
      collect_typed_values(graph.inputs(i), values);
      for (const TypedValue& value : values) {
        if (value.name.empty() || tables.has(value)) continue;
        report(value, fmt::format("graph input {}{}", i, scope.description), scope.top_level_node,
               {});
      }
    }
    for (int n = 0; n < graph.nodes_size(); ++n) {
      const ir::Node& node = graph.nodes(n);
      std::string_view node_name = fx_node_name(node);
      values.clear();
      for (const ir::Argument& output : node.outputs()) collect_typed_values(output, values);
      for (const TypedValue& value : values) {
        if (value.name.empty() || tables.has(value)) continue;
        report(value, fmt::format("node `{}` (position {}){}", node_name, n, scope.description),
               scope.top_level_node.empty() ? std::string(node_name) : scope.top_level_node,
               node.target());
      }
      check_subgraphs(node, node_name, scope);
    }
  }

  // The top-level graph. The index decides in its own walk whether every value has its
  // entry; when so (the usual case) only the subgraphs, separate scopes with tables of their
  // own, need a walk, and the findings are the same as walking every node.
  void check_top_level() {
    if (!index_.ssa_facts().metadata_complete) {
      check(index_.graph(), GraphScope{});
      return;
    }
    for (int n : index_.subgraph_nodes()) {
      const ir::Node& node = index_.graph().nodes(n);
      check_subgraphs(node, fx_node_name(node), GraphScope{});
    }
  }

  void check_subgraphs(const ir::Node& node, std::string_view node_name,
                       const GraphScope& scope) {
    if (scope.depth >= kMaxSubgraphDepth) return;
    for (const Subgraph& subgraph : subgraphs_of(node))
      check(*subgraph.graph, scope.enter(subgraph, node_name));
  }

  void summarize() {
    if (missing_ <= kMaxIndividualFindings) return;
    emit(sink_, info_, index_.name(),
         fmt::format("{} more values lack metadata (only the first {} are listed one by one)",
                     missing_ - kMaxIndividualFindings, kMaxIndividualFindings))
        .note(fmt::format("first unlisted: {}", first_unlisted_))
        .fix("re-serialize the program with a writer that records every value's metadata");
  }

 private:
  void report(const TypedValue& value, const std::string& definer, const std::string& node,
              std::string_view target) {
    ++missing_;
    if (missing_ > kMaxIndividualFindings) {
      if (first_unlisted_.empty()) first_unlisted_ = fmt::format("`{}`", value.name);
      return;
    }
    InFlightFinding finding =
        emit(sink_, info_, index_.name(),
             fmt::format("{} defines `{}`, which has no entry in graph.{}", definer, value.name,
                         value_table_name(value.table)));
    if (!node.empty()) finding.at_node(node);
    finding.at_value(std::string(value.name));
    if (!target.empty()) finding.op(std::string(target));
    finding
        .note("torch.export.load rebuilds each value's meta[\"val\"] (a fake tensor or symbol) "
              "from this table, and rejects the file without it; shape and dtype checks have "
              "nothing to read either")
        .fix(fmt::format("add graph.{}[\"{}\"] with the value's {}", value_table_name(value.table),
                         value.name,
                         value.table == ValueTable::kTensor ? "dtype, sizes, strides and device"
                                                            : "expression or constant"));
  }

  const ProgramIndex& index_;
  DiagnosticSink& sink_;
  const RuleInfo& info_;
  int missing_ = 0;
  std::string first_unlisted_;
};

}  // namespace

void ValueHasMetadata::check(const ProgramIndex& index, DiagnosticSink& sink) const {
  MetadataChecker checker(index, sink, kValueHasMetadata);
  checker.check_top_level();
  checker.summarize();
}

std::unique_ptr<Rule> make_ValueHasMetadata() { return std::make_unique<ValueHasMetadata>(); }

}  // namespace pt2lint
