#include "rules/structural/value_has_metadata.h"

#include <fmt/format.h>

#include <unordered_set>

#include "rules/structural/graph_helpers.h"
#include "verifier/program_index.h"

namespace pt2lint {
namespace {

// Past this many findings the rest are summed up in one: a writer that drops the whole table
// is one defect, and thousands of identical lines would bury everything else.
constexpr int kMaxIndividualFindings = 20;

// A value a graph defines, with the table its metadata lives in.
struct TypedValue {
  std::string_view name;
  std::string_view table;  // "tensor_values", "sym_int_values", ...
};

void collect_typed(const ir::Argument& a, std::vector<TypedValue>& out) {
  using K = ir::Argument::KindCase;
  switch (a.kind_case()) {
    case K::kAsTensor: out.push_back({a.as_tensor().name(), "tensor_values"}); break;
    case K::kAsTensors:
      for (const auto& t : a.as_tensors().items()) out.push_back({t.name(), "tensor_values"});
      break;
    case K::kAsOptionalTensors:
      for (const auto& t : a.as_optional_tensors().items())
        if (t.has_as_tensor()) out.push_back({t.as_tensor().name(), "tensor_values"});
      break;
    case K::kAsOptionalTensor:
      if (a.as_optional_tensor().has_as_tensor())
        out.push_back({a.as_optional_tensor().as_tensor().name(), "tensor_values"});
      break;
    case K::kAsSymInt:
      if (a.as_sym_int().has_as_name()) out.push_back({a.as_sym_int().as_name(), "sym_int_values"});
      break;
    case K::kAsSymInts:
      for (const auto& s : a.as_sym_ints().items())
        if (s.has_as_name()) out.push_back({s.as_name(), "sym_int_values"});
      break;
    case K::kAsSymBool:
      if (a.as_sym_bool().has_as_name())
        out.push_back({a.as_sym_bool().as_name(), "sym_bool_values"});
      break;
    case K::kAsSymBools:
      for (const auto& s : a.as_sym_bools().items())
        if (s.has_as_name()) out.push_back({s.as_name(), "sym_bool_values"});
      break;
    case K::kAsSymFloat:
      if (a.as_sym_float().has_as_name())
        out.push_back({a.as_sym_float().as_name(), "sym_float_values"});
      break;
    case K::kAsSymFloats:
      for (const auto& s : a.as_sym_floats().items())
        if (s.has_as_name()) out.push_back({s.as_name(), "sym_float_values"});
      break;
    default: break;  // constants, tokens, custom objects: no metadata table to check
  }
}

// The names in each value table of one graph. The top-level tensor table, by far the largest,
// is already indexed by the ProgramIndex; subgraphs get sets of their own.
class ValueTables {
 public:
  ValueTables(const ir::Graph& graph, const ProgramIndex* top_level) : top_level_(top_level) {
    if (top_level_ == nullptr)
      for (const auto& e : graph.tensor_values()) tensors_.insert(e.key());
    for (const auto& e : graph.sym_int_values()) sym_ints_.insert(e.key());
    for (const auto& e : graph.sym_bool_values()) sym_bools_.insert(e.key());
    for (const auto& e : graph.sym_float_values()) sym_floats_.insert(e.key());
  }
  bool has(const TypedValue& value) const {
    if (value.table == "tensor_values") {
      return top_level_ ? top_level_->tensor_meta(value.name) != nullptr
                        : tensors_.count(value.name) != 0;
    }
    if (value.table == "sym_int_values") return sym_ints_.count(value.name) != 0;
    if (value.table == "sym_bool_values") return sym_bools_.count(value.name) != 0;
    return sym_floats_.count(value.name) != 0;
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
      collect_typed(graph.inputs(i), values);
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
      for (const ir::Argument& output : node.outputs()) collect_typed(output, values);
      for (const TypedValue& value : values) {
        if (value.name.empty() || tables.has(value)) continue;
        report(value, fmt::format("node `{}` (position {}){}", node_name, n, scope.description),
               scope.top_level_node.empty() ? std::string(node_name) : scope.top_level_node,
               node.target());
      }
      if (scope.depth >= kMaxSubgraphDepth) continue;
      for (const Subgraph& subgraph : subgraphs_of(node))
        check(*subgraph.graph, scope.enter(subgraph, node_name));
    }
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
                         value.table));
    if (!node.empty()) finding.at_node(node);
    finding.at_value(std::string(value.name));
    if (!target.empty()) finding.op(std::string(target));
    finding
        .note("torch.export.load rebuilds each value's meta[\"val\"] (a fake tensor or symbol) "
              "from this table, and rejects the file without it; shape and dtype checks have "
              "nothing to read either")
        .fix(fmt::format("add graph.{}[\"{}\"] with the value's {}", value.table, value.name,
                         value.table == "tensor_values" ? "dtype, sizes, strides and device"
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
  MetadataChecker checker(index, sink, kInfo);
  checker.check(index.graph(), GraphScope{});
  checker.summarize();
}

}  // namespace pt2lint
