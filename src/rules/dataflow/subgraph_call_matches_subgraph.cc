// PT313 subgraph-call-matches-subgraph: a higher-order call's operands or results do not match its
// subgraph's inputs and outputs in count, rank, size or dtype, or invoke_subgraph calls that share
// an identifier run different bodies.
// docs/rules/subgraph-call-matches-subgraph.md
#include <fmt/format.h>

#include <algorithm>
#include <map>
#include <memory>
#include <string>
#include <string_view>
#include <unordered_map>
#include <vector>

#include "analysis/dataflow/subgraph_calls.h"
#include "analysis/dataflow/tensor_meta_text.h"
#include "analysis/program_index.h"
#include "core/ir/ir_accessors.h"
#include "core/rule.h"
#include "core/rule_catalogue.h"

namespace pt2lint {
namespace {

// Nesting followed (as subgraph_calls.cc does); deeper calls are not compared.
constexpr int kCallMatchDepth = 32;

// One flattened operand, result, graph input or graph output: a value name ("" for a constant
// or None) and the graph whose tensor_values describe it.
struct CallSlot {
  std::string_view value;
  const ir::Graph* graph = nullptr;
};

void flatten_call_slots(const ir::Argument& arg, const ir::Graph* graph, std::vector<CallSlot>& out) {
  switch (arg.kind_case()) {
    case ir::Argument::kAsTensors:
      for (const ir::TensorArgument& t : arg.as_tensors().items()) out.push_back({t.name(), graph});
      break;
    case ir::Argument::kAsOptionalTensors:
      for (const ir::OptionalTensorArgument& t : arg.as_optional_tensors().items())
        out.push_back({t.has_as_tensor() ? std::string_view(t.as_tensor().name()) : std::string_view{}, graph});
      break;
    case ir::Argument::kAsSymInts:
      for (int i = 0; i < arg.as_sym_ints().items_size(); ++i) out.push_back({{}, graph});
      break;
    case ir::Argument::kAsOptionalTensor:
      out.push_back({arg.as_optional_tensor().has_as_tensor() ? std::string_view(arg.as_optional_tensor().as_tensor().name())
                                                              : std::string_view{},
                     graph});
      break;
    case ir::Argument::kAsTensor: out.push_back({arg.as_tensor().name(), graph}); break;
    default: out.push_back({{}, graph}); break;
  }
}

// Each graph's tensor_values by name, built the first time a graph is asked: a call's operands
// and results are looked up by hash, not by a scan of the table per value.
class CallMetaTables {
 public:
  const ir::TensorMeta* find(const CallSlot& slot) {
    if (slot.value.empty() || slot.graph == nullptr) return nullptr;
    auto [it, inserted] = tables_.try_emplace(slot.graph);
    if (inserted)
      for (const ir::TensorMetaEntry& entry : slot.graph->tensor_values())
        it->second.try_emplace(entry.key(), &entry.value());
    auto meta = it->second.find(slot.value);
    return meta == it->second.end() ? nullptr : meta->second;
  }

 private:
  std::unordered_map<const ir::Graph*, std::unordered_map<std::string_view, const ir::TensorMeta*>> tables_;
};

// How the inner value relates to the outer one.
enum class CallRelation {
  kSame,   // the same shape and dtype
  kSlice,  // the inner value is one slice of the outer along dim 0 (map, scan xs, stacked ys)
  kDtype,  // only the dtype is fixed (a later call of a shared invoke_subgraph body)
};

// What differs between `outer` (the caller's value) and `inner` (the subgraph's), or "" when
// nothing certainly does: sizes are compared only where both are integers, so a symbolic size
// never makes a finding.
std::string call_meta_difference(const ir::TensorMeta& outer, const ir::TensorMeta& inner, CallRelation relation) {
  if (outer.dtype() != inner.dtype())
    return fmt::format("dtype {} against {}", dataflow::dtype_name(outer.dtype()), dataflow::dtype_name(inner.dtype()));
  if (relation == CallRelation::kDtype) return {};
  const int skip = relation == CallRelation::kSlice ? 1 : 0;
  if (outer.sizes_size() != inner.sizes_size() + skip)
    return fmt::format("shape {} against {}{}", dataflow::shape_text(outer), dataflow::shape_text(inner),
                       skip ? " (one slice along dim 0 expected)" : "");
  for (int d = 0; d < inner.sizes_size(); ++d) {
    const ir::SymInt& a = outer.sizes(d + skip);
    const ir::SymInt& b = inner.sizes(d);
    if (a.has_as_int() && b.has_as_int() && a.as_int() != b.as_int())
      return fmt::format("shape {} against {}{}", dataflow::shape_text(outer), dataflow::shape_text(inner),
                         skip ? " (one slice along dim 0 expected)" : "");
  }
  return {};
}

// A canonical text of a graph's body: targets, argument layout and constants, with every value
// named by the position it is defined at, so that two copies of one body compare equal and
// metadata (shapes, stack traces) does not take part.
class SubgraphBodyText {
 public:
  std::string of(const ir::Graph& graph, int depth) {
    std::string text;
    std::vector<std::string_view> names;
    for (const ir::Argument& input : graph.inputs()) {
      collect_value_names(input, names);
      for (std::string_view name : names) define(name);
      names.clear();
      text += fmt::format("in:{};", static_cast<int>(input.kind_case()));
    }
    for (const ir::Node& node : graph.nodes()) {
      text += node.target();
      text += '(';
      for (const ir::NamedArgument& input : node.inputs()) {
        text += fmt::format("{}:{}=", input.name(), input.kind());
        argument(input.arg(), depth, text);
        text += ',';
      }
      text += ")->";
      for (const ir::Argument& output : node.outputs()) {
        collect_value_names(output, names);
        for (std::string_view name : names) define(name);
        names.clear();
        text += fmt::format("{};", static_cast<int>(output.kind_case()));
      }
      text += '\n';
    }
    text += "out:";
    for (const ir::Argument& output : graph.outputs()) argument(output, depth, text);
    return text;
  }

 private:
  void define(std::string_view name) { ids_.try_emplace(name, static_cast<int>(ids_.size())); }

  void argument(const ir::Argument& arg, int depth, std::string& text) {
    if (arg.has_as_graph()) {
      if (depth >= kCallMatchDepth) {
        text += "<deep>";
        return;
      }
      SubgraphBodyText inner;
      text += "{" + inner.of(arg.as_graph().graph(), depth + 1) + "}";
      return;
    }
    std::vector<std::string_view> names;
    collect_value_names(arg, names);
    if (names.empty()) {
      text += arg.SerializeAsString();
      return;
    }
    text += fmt::format("k{}[", static_cast<int>(arg.kind_case()));
    for (std::string_view name : names) {
      auto it = ids_.find(name);
      text += it == ids_.end() ? fmt::format("free:{}", name) : fmt::format("v{}", it->second);
      text += ' ';
    }
    text += ']';
  }

  std::unordered_map<std::string_view, int> ids_;
};

// The first invoke_subgraph call seen for an identifier.
struct FirstInvokeCall {
  std::string node;
  std::string graph_name;
  std::string body;
};

class SubgraphCallMatchesSubgraph final : public Rule {
 public:
  const RuleInfo& info() const override { return kSubgraphCallMatchesSubgraph; }

  void check(const ProgramIndex& index, DiagnosticSink& sink) const override {
    if (index.subgraph_nodes().empty()) return;
    std::map<std::string, FirstInvokeCall, std::less<>> identifiers;
    CallMetaTables metas;
    visit(index, index.graph(), 0, identifiers, metas, sink);
  }

 private:
  void visit(const ProgramIndex& index, const ir::Graph& graph, int depth,
             std::map<std::string, FirstInvokeCall, std::less<>>& identifiers, CallMetaTables& metas,
             DiagnosticSink& sink) const {
    if (depth > kCallMatchDepth) return;
    for (const ir::Node& node : graph.nodes()) {
      bool has_graph = false;
      for (const ir::NamedArgument& input : node.inputs()) has_graph = has_graph || input.arg().has_as_graph();
      if (!has_graph) continue;
      const dataflow::SubgraphCall call = dataflow::bind_subgraph_call(node);
      if (call.known) check_call(index, graph, node, call, identifiers, metas, sink);
      for (const ir::NamedArgument& input : node.inputs())
        if (input.arg().has_as_graph())
          visit(index, input.arg().as_graph().graph(), depth + 1, identifiers, metas, sink);
    }
  }

  // The caller's operands, flattened, the way `op` hands them to subgraph `g`, with the
  // relation of each to its subgraph input; empty when the op's inputs are not compared.
  static std::vector<std::pair<CallSlot, CallRelation>> operands(const ir::Graph& graph, const ir::Node& node,
                                                         std::string_view op, CallRelation first) {
    std::vector<std::pair<CallSlot, CallRelation>> out;
    auto add = [&](int from, int to, CallRelation relation) {
      for (int i = from; i < std::min(to, node.inputs_size()); ++i) {
        std::vector<CallSlot> flat;
        flatten_call_slots(node.inputs(i).arg(), &graph, flat);
        for (const CallSlot& s : flat) out.push_back({s, relation});
      }
    };
    const int end = node.inputs_size();
    if (op == "wrap_with_set_grad_enabled") add(2, end, CallRelation::kSame);
    else if (op == "wrap_with_autocast") add(5, end, CallRelation::kSame);
    else if (op == "invoke_subgraph") add(2, end, first);
    else if (op == "cond") add(3, end, CallRelation::kSame);
    else if (op == "while_loop") add(2, end, CallRelation::kSame);
    else if (op == "map_impl") { add(1, 2, CallRelation::kSlice); add(2, end, CallRelation::kSame); }
    else if (op == "scan") { add(1, 2, CallRelation::kSame); add(2, 3, CallRelation::kSlice); add(3, end, CallRelation::kSame); }
    return out;
  }

  void check_call(const ProgramIndex& index, const ir::Graph& graph, const ir::Node& node,
                  const dataflow::SubgraphCall& call, std::map<std::string, FirstInvokeCall, std::less<>>& identifiers,
                  CallMetaTables& metas, DiagnosticSink& sink) const {
    const std::string node_name(fx_node_name(node));
    CallRelation invoke_relation = CallRelation::kSame;
    if (call.op == "invoke_subgraph" && call.subgraphs.size() == 1 && node.inputs_size() > 1 &&
        node.inputs(1).arg().has_as_string()) {
      const std::string& identifier = node.inputs(1).arg().as_string();
      SubgraphBodyText body;
      std::string text = body.of(*call.subgraphs[0].graph, 0);
      auto [it, first] = identifiers.try_emplace(identifier, FirstInvokeCall{node_name, std::string(call.subgraphs[0].name), text});
      if (!first) {
        // Later calls reuse the body traced for the first: only its dtypes are fixed.
        invoke_relation = CallRelation::kDtype;
        if (it->second.body != text) report_body(index, node, node_name, identifier, it->second,
                                                 call.subgraphs[0].name, text, sink);
      }
    }
    std::vector<CallSlot> results;
    for (const ir::Argument& output : node.outputs()) flatten_call_slots(output, &graph, results);
    for (std::size_t g = 0; g < call.subgraphs.size(); ++g) {
      const dataflow::SubgraphBinding& sub = call.subgraphs[g];
      if (!sub.bound) {
        if (call.fits) report_inputs_count(index, node, node_name, call, sub, sink);
        continue;
      }
      const bool inputs_compared = call.op != "associative_scan" && call.op != "flex_attention";
      if (inputs_compared) {
        const auto ops = operands(graph, node, call.op, invoke_relation);
        if (ops.size() == static_cast<std::size_t>(sub.graph->inputs_size())) {
          for (int i = 0; i < sub.graph->inputs_size(); ++i) {
            CallSlot inner{argument_value_name(sub.graph->inputs(i)), sub.graph};
            compare(index, node, node_name, call, sub, ops[static_cast<std::size_t>(i)].first, inner,
                    ops[static_cast<std::size_t>(i)].second, fmt::format("input {}", i), metas, sink);
          }
        }
      }
      check_outputs(index, graph, node, node_name, call, sub, g, results, invoke_relation, metas, sink);
    }
  }

  void check_outputs(const ProgramIndex& index, const ir::Graph& graph, const ir::Node& node,
                     const std::string& node_name, const dataflow::SubgraphCall& call,
                     const dataflow::SubgraphBinding& sub, std::size_t g, const std::vector<CallSlot>& results,
                     CallRelation invoke_relation, CallMetaTables& metas, DiagnosticSink& sink) const {
    std::vector<CallSlot> returned;
    for (const ir::Argument& output : sub.graph->outputs()) flatten_call_slots(output, sub.graph, returned);
    std::vector<std::pair<CallSlot, CallRelation>> expected;  // what each subgraph output must match
    std::string against;
    if (call.op == "wrap_with_set_grad_enabled" || call.op == "wrap_with_autocast" || call.op == "cond" ||
        call.op == "invoke_subgraph") {
      for (const CallSlot& r : results) expected.push_back({r, call.op == "invoke_subgraph" ? invoke_relation : CallRelation::kSame});
      against = "the call's results";
    } else if (call.op == "while_loop") {
      if (g == 0) {
        if (returned.size() != 1) report_outputs_count(index, node, node_name, call, sub, returned.size(), 1,
                                                       "one boolean", sink);
        return;
      }
      std::vector<CallSlot> carried;
      if (node.inputs_size() > 2) flatten_call_slots(node.inputs(2).arg(), &graph, carried);
      for (const CallSlot& c : carried) expected.push_back({c, CallRelation::kSame});
      against = "the carried inputs";
    } else if (call.op == "map_impl") {
      for (const CallSlot& r : results) expected.push_back({r, CallRelation::kSlice});
      against = "the call's results (one slice each)";
    } else if (call.op == "scan") {
      std::vector<CallSlot> init;
      if (node.inputs_size() > 1) flatten_call_slots(node.inputs(1).arg(), &graph, init);
      for (std::size_t k = 0; k < results.size(); ++k)
        expected.push_back({results[k], k < init.size() ? CallRelation::kSame : CallRelation::kSlice});
      against = "the call's results (the carry, then one slice of each stacked output)";
    } else {
      return;  // associative_scan, flex_attention: results are not compared
    }
    if (returned.size() != expected.size()) {
      report_outputs_count(index, node, node_name, call, sub, returned.size(), expected.size(), against, sink);
      return;
    }
    for (std::size_t k = 0; k < returned.size(); ++k)
      compare(index, node, node_name, call, sub, expected[k].first, returned[k], expected[k].second,
              fmt::format("output {}", k), metas, sink);
  }

  void compare(const ProgramIndex& index, const ir::Node& node, const std::string& node_name,
               const dataflow::SubgraphCall& call, const dataflow::SubgraphBinding& sub, const CallSlot& outer,
               const CallSlot& inner, CallRelation relation, const std::string& what, CallMetaTables& metas,
               DiagnosticSink& sink) const {
    const ir::TensorMeta* a = metas.find(outer);
    const ir::TensorMeta* b = metas.find(inner);
    if (a == nullptr || b == nullptr) return;
    const std::string diff = call_meta_difference(*a, *b, relation);
    if (diff.empty()) return;
    auto finding = emit(sink, kSubgraphCallMatchesSubgraph, index.name(),
                        fmt::format("{} of subgraph `{}` of node `{}` ({}) is `{}`, {}, but the call binds it to "
                                    "`{}`, {}: {}",
                                    what, sub.name, node_name, call.op, inner.value, dataflow::meta_text(*b),
                                    outer.value, dataflow::meta_text(*a), diff));
    finding.at_node(node_name).op(node.target());
    finding.note(
        "the subgraph was traced for other values than the call passes or receives: run as saved, "
        "it computes on tensors of a shape or dtype it was not traced for, and a compiler that trusts "
        "its metadata (AOTInductor, inductor's invoke_subgraph cache) generates code for the wrong "
        "tensors");
    finding.fix(
        "re-export the program rather than editing the call or its subgraph by hand; a pass that "
        "rewrites a call's operands or results must rewrite the subgraph's inputs and outputs with them");
  }

  void report_inputs_count(const ProgramIndex& index, const ir::Node& node, const std::string& node_name,
                           const dataflow::SubgraphCall& call, const dataflow::SubgraphBinding& sub,
                           DiagnosticSink& sink) const {
    auto finding = emit(sink, kSubgraphCallMatchesSubgraph, index.name(),
                        fmt::format("node `{}` ({}) passes its subgraph `{}` a different number of operands than "
                                    "the subgraph's {} input(s)",
                                    node_name, call.op, sub.name, sub.graph->inputs_size()));
    finding.at_node(node_name).op(node.target());
    finding.note("PyTorch binds a higher-order op's operands to its subgraph's inputs by position: with a "
                 "count that differs, calling the subgraph fails, or binds every later operand to the wrong input");
    finding.fix("re-export the program; a pass that adds or removes an operand of the call must add or "
                "remove the subgraph's input with it");
  }

  void report_outputs_count(const ProgramIndex& index, const ir::Node& node, const std::string& node_name,
                            const dataflow::SubgraphCall& call, const dataflow::SubgraphBinding& sub,
                            std::size_t returned, std::size_t expected, const std::string& against,
                            DiagnosticSink& sink) const {
    auto finding = emit(sink, kSubgraphCallMatchesSubgraph, index.name(),
                        fmt::format("subgraph `{}` of node `{}` ({}) returns {} value(s), but {} count {}",
                                    sub.name, node_name, call.op, returned, against, expected));
    finding.at_node(node_name).op(node.target());
    finding.note("the call's results are the subgraph's outputs by position: with a count that differs, "
                 "running the call fails to unpack them, or hands each later result the wrong value");
    finding.fix("re-export the program; a pass that changes what the subgraph returns must change the "
                "call's results with it");
  }

  void report_body(const ProgramIndex& index, const ir::Node& node, const std::string& node_name,
                   const std::string& identifier, const FirstInvokeCall& first, std::string_view graph_name,
                   const std::string& body, DiagnosticSink& sink) const {
    // The first line (one per node, "target(...)") where the bodies part.
    std::string_view mine = body, theirs = first.body;
    int line = 0;
    while (!mine.empty() && !theirs.empty()) {
      const std::size_t a = mine.find('\n'), b = theirs.find('\n');
      if (mine.substr(0, a) != theirs.substr(0, b)) break;
      if (a == std::string_view::npos || b == std::string_view::npos) break;
      mine.remove_prefix(a + 1), theirs.remove_prefix(b + 1), ++line;
    }
    auto op_of = [](std::string_view text) { return text.substr(0, std::min(text.find('('), text.find('\n'))); };
    auto finding = emit(sink, kSubgraphCallMatchesSubgraph, index.name(),
                        fmt::format("node `{}` (invoke_subgraph) runs subgraph `{}` under identifier `{}`, but node "
                                    "`{}`, the first call of that identifier, runs a different body (subgraph `{}`): "
                                    "node {} of the bodies is `{}` against `{}`",
                                    node_name, graph_name, identifier, first.node, first.graph_name, line,
                                    op_of(mine), op_of(theirs)));
    finding.at_node(node_name).op(node.target());
    finding.note("calls that share an identifier are compiled once and share the result "
                 "(pytorch/pytorch#197540): one of the two bodies runs in place of the other, and that "
                 "call silently computes something else");
    finding.fix("give each distinct body its own identifier (one nested_compile_region per body), or "
                "make the regions identical");
  }
};

}  // namespace

std::unique_ptr<Rule> make_SubgraphCallMatchesSubgraph() { return std::make_unique<SubgraphCallMatchesSubgraph>(); }

}  // namespace pt2lint
