// PT323 effect-token-chain: effect tokens order a program's side effects (aten._print, effectful
// custom ops): each with_effects call takes the token the previous effect returned and returns the
// next. The chain must run unbroken from each input token to an output token:
// - a token used twice (forked) leaves the order of two effects undefined;
// - a with_effects token that nothing takes (dropped) detaches its effect from the output, so
//   a runtime may reorder or drop it (pytorch/pytorch#132418);
// - a with_effects call whose token is not a token of the chain, or an output token spec that
//   names no token, is a chain made up by a pass.
// A token passed to invoke_subgraph (torch.compiler.nested_compile_region, after
// run_decompositions) is followed into the subgraph: the subgraph input it becomes must run
// through the subgraph's with_effects calls, unforked and not dropped, to one subgraph output, and
// the invoke_subgraph output at that place continues the chain. A token passed to any other op
// ends what this rule can follow: it then checks nothing past that op, and says nothing of it.
// docs/rules/effect-token-chain.md
#include <fmt/format.h>

#include <algorithm>
#include <map>
#include <memory>
#include <optional>
#include <string>
#include <vector>

#include "analysis/program_index.h"
#include "core/ir/ir_accessors.h"
#include "core/rule.h"
#include "core/rule_catalogue.h"

namespace pt2lint {
namespace {

constexpr std::string_view kWithEffects = "torch.ops.higher_order.with_effects";
// The token a with_effects call takes: its first input (tokens are serialized as tensors).
std::string_view token_argument(const ir::Node& node) {
  if (node.inputs_size() == 0) return {};
  const ir::Argument& arg = node.inputs(0).arg();
  if (arg.has_as_tensor()) return arg.as_tensor().name();
  return {};
}

// The token a with_effects call returns: its first output.
std::string_view token_result(const ir::Node& node) {
  if (node.outputs_size() == 0) return {};
  const ir::Argument& arg = node.outputs(0);
  if (arg.has_as_tensor()) return arg.as_tensor().name();
  return {};
}

constexpr std::string_view kInvokeSubgraph = "torch.ops.higher_order.invoke_subgraph";

// The value names an argument list (or one argument) defines or takes, flattened in order.
std::vector<std::string_view> flat_names(const google::protobuf::RepeatedPtrField<ir::Argument>& args) {
  std::vector<std::string_view> names;
  for (const ir::Argument& arg : args) {
    if (arg.has_as_tensors()) {
      for (const ir::TensorArgument& t : arg.as_tensors().items()) names.push_back(t.name());
    } else {
      names.push_back(arg.has_as_tensor() ? std::string_view(arg.as_tensor().name()) : std::string_view{});
    }
  }
  return names;
}

// The operands of an invoke_subgraph call (its inputs after the subgraph and the identifier), and
// the subgraph.
struct InvokedSubgraph {
  const ir::Graph* body = nullptr;
  std::string_view body_name;
  std::vector<std::string_view> operands;
};

std::optional<InvokedSubgraph> invoked_subgraph(const ir::Node& node) {
  if (node.target() != kInvokeSubgraph || node.inputs_size() < 2 || !node.inputs(0).arg().has_as_graph())
    return std::nullopt;
  InvokedSubgraph call{&node.inputs(0).arg().as_graph().graph(), node.inputs(0).arg().as_graph().name(), {}};
  for (int k = 2; k < node.inputs_size(); ++k) {
    const ir::Argument& arg = node.inputs(k).arg();
    call.operands.push_back(arg.has_as_tensor() ? std::string_view(arg.as_tensor().name()) : std::string_view{});
  }
  return call;
}

// What following a token through a subgraph found: the subgraph output that returns it (-1: none),
// or the defect inside (a message), or that the chain goes where this rule cannot follow.
struct ThroughSubgraph {
  int output = -1;
  std::string defect;        // "" when the chain inside is sound
  bool followed = true;      // false: a nested op takes the token
};

// The token chain inside `body` from its input `input`: each value must be taken by exactly one
// with_effects call, or returned by exactly one output.
ThroughSubgraph through_subgraph(const ir::Graph& body, int input) {
  ThroughSubgraph result;
  if (input >= body.inputs_size() || !body.inputs(input).has_as_tensor()) {
    result.followed = false;
    return result;
  }
  std::map<std::string_view, std::vector<int>> users;  // value -> nodes that take it
  for (int n = 0; n < body.nodes_size(); ++n) {
    std::vector<std::string_view> taken;
    for (const ir::NamedArgument& in : body.nodes(n).inputs()) collect_value_names(in.arg(), taken);
    for (std::string_view name : taken) users[name].push_back(n);
  }
  const std::vector<std::string_view> outputs = flat_names(body.outputs());
  std::string_view token = body.inputs(input).as_tensor().name();
  std::string origin = fmt::format("subgraph input `{}`", token);
  for (int hops = 0; hops <= body.nodes_size(); ++hops) {
    const std::vector<int>& taken_by = users[token];
    std::vector<int> returned_at;
    for (int o = 0; o < static_cast<int>(outputs.size()); ++o)
      if (outputs[static_cast<std::size_t>(o)] == token) returned_at.push_back(o);
    for (int n : taken_by) {
      const ir::Node& user = body.nodes(n);
      if (user.target() != kWithEffects || token_argument(user) != token) {
        result.followed = false;
        return result;
      }
    }
    if (taken_by.size() + returned_at.size() > 1) {
      result.defect = fmt::format("{} is used {} times inside the subgraph: the effect-token chain forks there, so "
                                  "the order of the effects after it is undefined",
                                  origin, taken_by.size() + returned_at.size());
      return result;
    }
    if (taken_by.empty() && returned_at.empty()) {
      result.defect = fmt::format("{} is never used inside the subgraph: no later effect takes it and no subgraph "
                                  "output returns it, so the effect-token chain is cut there",
                                  origin);
      return result;
    }
    if (!returned_at.empty()) {
      result.output = returned_at.front();
      return result;
    }
    const ir::Node& call = body.nodes(taken_by.front());
    token = token_result(call);
    origin = fmt::format("token `{}` returned by with_effects call `{}` in the subgraph", token, fx_node_name(call));
  }
  result.followed = false;
  return result;
}

// A token a pass made up, in a with_effects call or in an output token spec: what the finding
// says (a pattern of the place, then the value), why it matters and the fix.
struct MadeUpToken {
  std::string_view message;
  std::string_view note;
  std::string_view fix;
};

constexpr MadeUpToken kCallTakesNoToken{
    "with_effects call `{}` takes `{}` as its token, which is neither an input token nor a token "
    "another with_effects call returned",
    "the token orders the effect after the ones before it; a value that is not a token of the "
    "chain leaves the effect unordered, and PyTorch refuses such a program at run time",
    "pass the token the previous with_effects call returned (or the input token, for the first "
    "effect)"};

constexpr MadeUpToken kOutputReturnsNoToken{
    "output token spec {} returns `{}`, which is neither an input token nor a token a "
    "with_effects call returned",
    "the output token is how the caller orders the next call's effects after this one's",
    "return the token the last with_effects call returned"};

struct Token {
  int node = -1;        // the with_effects call that returns it; -1 for an input token
  int input_spec = -1;  // for an input token
  std::vector<int> taken_by;     // with_effects calls that take it
  std::vector<int> output_specs; // output token specs that return it
  bool escapes = false;          // another op takes it: the chain goes where this rule cannot follow
};

class EffectTokenChain final : public Rule {
 public:
  const RuleInfo& info() const override { return kEffectTokenChain; }

  void check(const ProgramIndex& index, DiagnosticSink& sink) const override {
    const ir::Graph& graph = index.graph();
    const ir::GraphSignature& signature = index.signature();
    std::map<std::string_view, Token> tokens;
    for (int i = 0; i < signature.input_specs_size(); ++i)
      if (signature.input_specs(i).has_token()) tokens[signature.input_specs(i).token().arg().name()].input_spec = i;
    std::vector<int> calls;
    for (int n = 0; n < graph.nodes_size(); ++n)
      if (graph.nodes(n).target() == kWithEffects) calls.push_back(n);
    if (tokens.empty() && calls.empty()) return;  // no effects: the usual program

    for (int n : calls) {
      const std::string_view result = token_result(graph.nodes(n));
      if (!result.empty()) tokens[result].node = n;
    }
    bool followed_everywhere = true;
    // A pass that miswires one call also strands the token it should have taken: one root
    // cause, reported as the miswiring, never also as a dropped token.
    bool miswired = false;
    bool miswired_inside = false;
    // Tokens into invoke_subgraph calls, in graph order: the chain inside is checked, and the
    // call's output at the place the subgraph returns the token continues the chain.
    std::map<std::string_view, std::vector<int>> into_subgraph;  // token -> calls that follow it
    for (int n = 0; n < graph.nodes_size(); ++n) {
      const std::optional<InvokedSubgraph> call = invoked_subgraph(graph.nodes(n));
      if (!call) continue;
      const std::vector<std::string_view> results = flat_names(graph.nodes(n).outputs());
      for (std::size_t k = 0; k < call->operands.size(); ++k) {
        if (call->operands[k].empty() || tokens.count(call->operands[k]) == 0) continue;
        const ThroughSubgraph through = through_subgraph(*call->body, static_cast<int>(k));
        if (!through.followed) continue;
        into_subgraph[call->operands[k]].push_back(n);
        tokens[call->operands[k]].taken_by.push_back(n);
        if (!through.defect.empty()) {
          report_in_subgraph(index, sink, n, call->body_name, through.defect);
          miswired_inside = true;
          continue;
        }
        if (through.output >= 0 && static_cast<std::size_t>(through.output) < results.size() &&
            !results[static_cast<std::size_t>(through.output)].empty())
          tokens[results[static_cast<std::size_t>(through.output)]].node = n;
      }
    }
    // The call's token output is unknown past a defect inside: one root cause, never also a
    // made-up output token.
    if (miswired_inside) return;
    for (int n : calls) {
      const std::string_view taken = token_argument(graph.nodes(n));
      auto it = tokens.find(taken);
      if (it == tokens.end()) {
        report_not_a_token(index, sink, n, -1, taken);
        miswired = true;
        continue;
      }
      it->second.taken_by.push_back(n);
    }
    for (auto& [name, token] : tokens) {
      for (int user : index.users(name)) {
        if (graph.nodes(user).target() == kWithEffects && token_argument(graph.nodes(user)) == name) continue;
        if (auto it = into_subgraph.find(name);
            it != into_subgraph.end() && std::find(it->second.begin(), it->second.end(), user) != it->second.end())
          continue;
        token.escapes = true;
        followed_everywhere = false;
      }
    }
    for (int i = 0; i < signature.output_specs_size(); ++i) {
      if (!signature.output_specs(i).has_token()) continue;
      // The value the spec returns is graph output i (PyTorch pairs them by position).
      std::string_view value = signature.output_specs(i).token().arg().name();
      if (i < graph.outputs_size()) {
        const ir::Argument& out = graph.outputs(i);
        if (out.has_as_tensor()) value = out.as_tensor().name();
      }
      auto it = tokens.find(value);
      if (it == tokens.end()) {
        report_not_a_token(index, sink, -1, i, value);
        miswired = true;
        continue;
      }
      it->second.output_specs.push_back(i);
    }
    // Past an op this rule cannot follow, a token may legitimately end inside it.
    for (const auto& [name, token] : tokens) {
      if (token.escapes || token.taken_by.size() + token.output_specs.size() < 2) continue;
      report_forked(index, sink, name, token);
      miswired = true;
    }
    if (miswired || !followed_everywhere) return;
    for (const auto& [name, token] : tokens)
      if (token.taken_by.empty() && token.output_specs.empty()) report_dropped(index, sink, name, token);
  }

 private:
  // A defect of the chain inside the subgraph that invoke_subgraph call `node` runs.
  static void report_in_subgraph(const ProgramIndex& index, DiagnosticSink& sink, int node,
                                 std::string_view body, const std::string& defect) {
    emit(sink, kEffectTokenChain, index.name(),
         fmt::format("in subgraph `{}` of invoke_subgraph call `{}`: {}", body, index.node_name(node), defect))
        .at_node(std::string(index.node_name(node)))
        .note("the subgraph's effects are ordered by the token it takes and returns: a forked or dropped token "
              "inside it leaves its effects unordered against the rest of the program, and a runtime may "
              "reorder or drop them (pytorch/pytorch#132418)")
        .fix("thread the token through the subgraph: each with_effects call takes the token the previous one "
             "returned (the first, the subgraph's token input), and the subgraph returns the last one");
  }

  static std::string origin(const ProgramIndex& index, std::string_view name, const Token& token) {
    if (token.node >= 0)
      return fmt::format("token `{}` returned by {} call `{}`", name,
                         index.graph().nodes(token.node).target() == kInvokeSubgraph ? "invoke_subgraph" : "with_effects",
                         index.node_name(token.node));
    return fmt::format("input token `{}`", name);
  }

  static void report_forked(const ProgramIndex& index, DiagnosticSink& sink, std::string_view name,
                            const Token& token) {
    std::string users;
    for (int n : token.taken_by) users += (users.empty() ? "`" : "`, `") + std::string(index.node_name(n));
    if (!users.empty()) users += "`";
    std::string text = users.empty() ? "" : "with_effects calls " + users;
    if (!token.output_specs.empty())
      text += (text.empty() ? "" : " and ") + fmt::format("output token spec {}", token.output_specs.front());
    auto finding = emit(sink, kEffectTokenChain, index.name(),
                        fmt::format("{} is used {} times ({}): the effect-token chain forks, so the order "
                                    "of the effects after it is undefined",
                                    origin(index, name, token), token.taken_by.size() + token.output_specs.size(),
                                    text));
    if (token.taken_by.size() > 1) finding.at_node(std::string(index.node_name(token.taken_by[1])));
    else if (!token.output_specs.empty()) finding.at_output_spec(token.output_specs.front());
    finding.at_value(std::string(name))
        .note("each effect must take the token the previous one returned: two effects that take one "
              "token may run in either order, or one of them not at all")
        .fix("give each with_effects call the token the previous call returned, and return the "
             "last call's token as the output token (a pass that inserts or reorders effects must "
             "rethread the chain)");
  }

  static void report_dropped(const ProgramIndex& index, DiagnosticSink& sink, std::string_view name,
                             const Token& token) {
    auto finding = emit(sink, kEffectTokenChain, index.name(),
                        fmt::format("{} is never used: no later effect takes it and no output token "
                                    "returns it, so the effect-token chain is cut there",
                                    origin(index, name, token)));
    if (token.node >= 0) finding.at_node(std::string(index.node_name(token.node)));
    else finding.at_input_spec(token.input_spec);
    finding.at_value(std::string(name))
        .note("an effect whose token reaches no output is not ordered before the program's end: a "
              "runtime or pass may drop or reorder it (pytorch/pytorch#132418)")
        .fix("return the last effect's token as the output token, and give each effect the token "
             "the previous one returned");
  }

  // A with_effects call (`node`), or else output token spec `spec`, whose token `value` is no
  // token of the chain.
  static void report_not_a_token(const ProgramIndex& index, DiagnosticSink& sink, int node,
                                 int spec, std::string_view value) {
    const MadeUpToken& text = node >= 0 ? kCallTakesNoToken : kOutputReturnsNoToken;
    const std::string place = node >= 0 ? std::string(index.node_name(node)) : std::to_string(spec);
    const std::string_view shown = value.empty() ? "(nothing)" : value;
    auto finding = emit(sink, kEffectTokenChain, index.name(),
                        fmt::format(fmt::runtime(text.message), place, shown));
    if (node >= 0) finding.at_node(place);
    else finding.at_output_spec(spec);
    finding.note(std::string(text.note)).fix(std::string(text.fix));
  }
};

}  // namespace

std::unique_ptr<Rule> make_EffectTokenChain() { return std::make_unique<EffectTokenChain>(); }

}  // namespace pt2lint
