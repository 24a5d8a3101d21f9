#include "contract/node_diff.h"

#include <algorithm>
#include <cmath>
#include <map>
#include <optional>
#include <string_view>
#include <tuple>

#include <fmt/format.h>

#include "core/ir/ir_accessors.h"
#include "core/ir/state_kind.h"
#include "core/rule_catalogue.h"

namespace pt2lint {
namespace {

constexpr std::string_view kTorchOps = "torch.ops.";

std::string_view node_metadata(const ir::Node& node, std::string_view key) {
  for (const ir::StringEntry& entry : node.metadata())
    if (entry.key() == key) return entry.value();
  return {};
}

// The value of `"key": "..."` at its first occurrence in `text` at or after `from`, or "".
std::string_view json_string_after(std::string_view text, std::string_view key, std::size_t from = 0) {
  const std::string pattern = fmt::format("\"{}\": \"", key);
  const std::size_t at = text.find(pattern, from);
  if (at == std::string_view::npos) return {};
  const std::size_t begin = at + pattern.size();
  const std::size_t end = text.find('"', begin);
  return end == std::string_view::npos ? std::string_view{} : text.substr(begin, end - begin);
}

// The module path of nn_module_stack ("key,path,type;key,path,type"): the paths, joined by ';'.
std::string module_path(const ir::Node& node) {
  const std::string_view stack = node_metadata(node, "nn_module_stack");
  std::string paths;
  std::size_t start = 0;
  while (start < stack.size()) {
    std::size_t end = stack.find(';', start);
    if (end == std::string_view::npos) end = stack.size();
    const std::string_view entry = stack.substr(start, end - start);
    const std::size_t first = entry.find(',');
    if (first != std::string_view::npos) {
      const std::size_t second = entry.find(',', first + 1);
      paths += std::string(entry.substr(first + 1, second == std::string_view::npos ? std::string_view::npos
                                                                                     : second - first - 1));
      paths += ';';
    }
    start = end + 1;
  }
  return paths;
}

// The node a from_node record names first (the node this one was made from) and the one it
// names last (the first graph's node the chain starts at).
struct Origin {
  std::string_view name, target, root;
};
Origin origin_of(const ir::Node& node) {
  const std::string_view record = node_metadata(node, "from_node");
  Origin origin{json_string_after(record, "name"), json_string_after(record, "target"), {}};
  const std::size_t last = record.rfind("\"name\": \"");
  if (last != std::string_view::npos) origin.root = json_string_after(record, "name", last);
  return origin;
}

std::string_view short_op(std::string_view target) {
  return target.starts_with(kTorchOps) ? target.substr(kTorchOps.size()) : target;
}

using Key = std::tuple<std::string, std::string, std::string>;

// One matching pass: nodes still unmatched on both sides that have a key (nullopt: none) pair
// in order within each key.
template <typename KeyBefore, typename KeyAfter>
void match_pass(const ir::Graph& before, const ir::Graph& after, std::vector<int>& before_match,
                std::vector<int>& after_match, KeyBefore key_before, KeyAfter key_after) {
  std::map<Key, std::vector<int>> waiting;  // AFTER's unmatched nodes, by key, in order
  for (int j = 0; j < after.nodes_size(); ++j) {
    if (after_match[j] >= 0) continue;
    if (std::optional<Key> key = key_after(after.nodes(j))) waiting[*key].push_back(j);
  }
  std::map<Key, std::size_t> taken;
  for (int i = 0; i < before.nodes_size(); ++i) {
    if (before_match[i] >= 0) continue;
    std::optional<Key> key = key_before(before.nodes(i));
    if (!key) continue;
    auto it = waiting.find(*key);
    if (it == waiting.end()) continue;
    std::size_t& k = taken[*key];
    if (k >= it->second.size()) continue;
    const int j = it->second[k++];
    before_match[i] = j;
    after_match[j] = i;
  }
}

// A literal argument's value, comparable across int and float; nullopt for anything else.
struct Literal {
  std::string text;                 // as the message shows it
  std::vector<double> numbers;      // ints, floats, bools
  std::string word;                 // strings, dtypes
  bool operator==(const Literal& other) const {
    if (word != other.word || numbers.size() != other.numbers.size()) return false;
    for (std::size_t i = 0; i < numbers.size(); ++i)
      if (!(numbers[i] == other.numbers[i] || (std::isnan(numbers[i]) && std::isnan(other.numbers[i]))))
        return false;
    return true;
  }
};

template <typename List>
Literal number_list(const List& items) {
  Literal literal;
  for (auto item : items) {
    literal.numbers.push_back(static_cast<double>(item));
    literal.text += (literal.text.empty() ? "" : ", ") + fmt::format("{}", item);
  }
  literal.text = "[" + literal.text + "]";
  return literal;
}

std::optional<Literal> literal_of(const ir::Argument& arg) {
  using K = ir::Argument::KindCase;
  switch (arg.kind_case()) {
    case K::kAsInt: return Literal{fmt::format("{}", arg.as_int()), {static_cast<double>(arg.as_int())}, {}};
    case K::kAsFloat: return Literal{fmt::format("{}", arg.as_float()), {arg.as_float()}, {}};
    case K::kAsBool: return Literal{arg.as_bool() ? "True" : "False", {arg.as_bool() ? 1.0 : 0.0}, {}};
    case K::kAsSymInt:
      if (arg.as_sym_int().kind_case() != ir::SymIntArgument::kAsInt) return std::nullopt;
      return Literal{fmt::format("{}", arg.as_sym_int().as_int()),
                     {static_cast<double>(arg.as_sym_int().as_int())}, {}};
    case K::kAsInts: return number_list(arg.as_ints().items());
    case K::kAsFloats: return number_list(arg.as_floats().items());
    case K::kAsBools: return number_list(arg.as_bools().items());
    case K::kAsString: return Literal{fmt::format("'{}'", arg.as_string()), {}, "s:" + arg.as_string()};
    case K::kAsScalarType:
      return Literal{fmt::format("dtype {}", arg.as_scalar_type()), {}, fmt::format("t:{}", arg.as_scalar_type())};
    default: return std::nullopt;
  }
}

// The argument of `node` that `of` (an input of the matched node) corresponds to: the one of
// the same keyword, or, for unnamed (higher-order) inputs, the one at the same position.
const ir::Argument* counterpart(const ir::Node& node, const ir::Node& other, int input) {
  const std::string& name = other.inputs(input).name();
  if (!name.empty()) return named_input(node, name);
  return input < node.inputs_size() && node.inputs(input).name().empty() ? &node.inputs(input).arg() : nullptr;
}

std::string input_label(const ir::Node& node, int input) {
  const std::string& name = node.inputs(input).name();
  return name.empty() ? fmt::format("input {}", input) : fmt::format("`{}`", name);
}

// The placeholder names of a program's state, with the input spec each comes from.
std::map<std::string_view, const ir::InputSpec*> placeholders(const ir::Program& program) {
  std::map<std::string_view, const ir::InputSpec*> specs;
  for (const ir::InputSpec& spec : program.program().graph_module().signature().input_specs())
    specs[input_spec_arg_name(spec)] = &spec;
  return specs;
}

std::string where(const ir::Node& node) {
  const std::string path = module_path(node);
  std::string_view last = path;
  if (!last.empty()) last.remove_suffix(1);
  const std::size_t cut = last.rfind(';');
  if (cut != std::string_view::npos) last = last.substr(cut + 1);
  return last.empty() ? std::string() : fmt::format(" (module `{}`)", last);
}

class NodeDiff {
 public:
  NodeDiff(const ir::Program& before, const ir::Program& after, const ProgramContract& before_contract,
           const ProgramContract& after_contract, const RenameMap& renames,
           const std::set<std::string, std::less<>>& opt_in, DiagnosticSink& sink)
      : before_(before), after_(after), before_contract_(before_contract), after_contract_(after_contract),
        renames_(renames), opt_in_(opt_in), sink_(sink) {}

  void run() {
    const ir::Graph& b = before_.program().graph_module().graph();
    const ir::Graph& a = after_.program().graph_module().graph();
    const NodeMatching matching = match_nodes(b, a);
    const bool literals = opt_in_.count(kLiteralChanged.id) != 0;
    const bool metadata = opt_in_.count(kMetadataLost.id) != 0;
    const auto before_specs = placeholders(before_);
    const auto after_specs = placeholders(after_);
    std::map<std::string, std::vector<std::string>> lost;  // metadata key -> AFTER node names
    std::map<std::string, int> carried;                    // metadata key -> matched nodes BEFORE has it on
    for (auto [i, j] : matching.pairs) {
      const ir::Node& bn = b.nodes(i);
      const ir::Node& an = a.nodes(j);
      constant_reads(bn, an, before_specs, after_specs);
      if (literals && bn.target() == an.target() && !bn.target().starts_with(kHigherOrderPrefix))
        changed_literals(bn, an);
      if (metadata) {
        for (std::string_view key : {"nn_module_stack", "from_node", "stack_trace"}) {
          if (node_metadata(bn, key).empty()) continue;
          ++carried[std::string(key)];
          if (node_metadata(an, key).empty()) lost[std::string(key)].emplace_back(fx_node_name(an));
        }
      }
    }
    for (const auto& [key, nodes] : lost) {
      std::string shown;
      for (std::size_t k = 0; k < nodes.size() && k < 5; ++k) shown += (k ? ", `" : "`") + nodes[k] + "`";
      if (nodes.size() > 5) shown += fmt::format(" and {} more", nodes.size() - 5);
      emit(sink_, kMetadataLost, after_.name(),
           fmt::format("node metadata `{}` is missing on {} of the {} nodes that carry it in the original "
                       "(matched by op and module): {}",
                       key, nodes.size(), carried[key], shown))
          .at_node(nodes.front())
          .note(key == "stack_trace"
                    ? "errors and profiles of the lowered program can no longer point at the model's source line"
                    : "passes that find nodes by module (quantization configs, _move_exported_model_to_eval, "
                      "unflatten, per-module debug handles) no longer see these nodes (pytorch/pytorch#171726)")
          .fix("keep node.meta when a pass replaces or copies a node (new_node.meta = dict(old.meta), or build "
               "the new nodes under torch.fx.traceback.preserve_node_meta())");
    }
  }

 private:
  std::string mapped(const std::string& name) const {
    auto it = renames_.find(name);
    return it == renames_.end() ? name : it->second;
  }

  bool written_by_before(std::string_view target) const {
    return std::any_of(before_contract_.writes.begin(), before_contract_.writes.end(),
                       [&](const WritePromise& w) { return w.target == target; });
  }

  // BEFORE's node reads a state BEFORE writes, straight from its placeholder; AFTER's matched
  // node reads a tensor constant in its place. A state that became a constant as a whole is
  // the contract's finding (the same rule), not one per read.
  void constant_reads(const ir::Node& bn, const ir::Node& an,
                      const std::map<std::string_view, const ir::InputSpec*>& before_specs,
                      const std::map<std::string_view, const ir::InputSpec*>& after_specs) {
    for (int k = 0; k < bn.inputs_size(); ++k) {
      const ir::Argument& barg = bn.inputs(k).arg();
      if (!barg.has_as_tensor()) continue;
      auto bs = before_specs.find(barg.as_tensor().name());
      if (bs == before_specs.end()) continue;
      const StateKind bkind = state_kind_of(*bs->second);
      if (bkind != StateKind::kBuffer && bkind != StateKind::kParameter) continue;
      const std::string target(input_spec_target(*bs->second));
      if (!written_by_before(target)) continue;
      const std::string expected = mapped(target);
      if (std::find(after_contract_.constants.begin(), after_contract_.constants.end(), expected) !=
          after_contract_.constants.end())
        continue;
      const ir::Argument* aarg = counterpart(an, bn, k);
      if (aarg == nullptr || !aarg->has_as_tensor()) continue;
      auto as = after_specs.find(aarg->as_tensor().name());
      if (as == after_specs.end() || state_kind_of(*as->second) != StateKind::kTensorConstant) continue;
      const std::string constant(input_spec_target(*as->second));
      if (!reported_.insert(std::string(fx_node_name(an)) + "\n" + constant).second) continue;
      emit(sink_, kWrittenStateBecameConstant, after_.name(),
           fmt::format("node `{}` ({}){} reads tensor constant `{}` as its {}, where the original's node `{}` "
                       "reads {} `{}`, which the original writes: the read was folded into the state's saved value",
                       fx_node_name(an), short_op(an.target()), where(an), constant, input_label(an, k),
                       fx_node_name(bn), state_kind_words(bkind), target))
          .at_node(std::string(fx_node_name(an)))
          .state(expected)
          .note(fmt::format("`{}` is still {} here, but this read sees the value saved with the program on every "
                            "call, never the updates: a cache read stays empty, a counter stays at zero "
                            "(constant folding of a mutated buffer, pytorch/executorch#7779, "
                            "pytorch/pytorch#185077)",
                            expected, written_after(expected) ? "written" : "state"))
          .fix(fmt::format("read `{}` itself: exclude mutated buffers (the graph signature's buffers_to_mutate) "
                           "from constant folding",
                           expected));
    }
  }

  bool written_after(std::string_view target) const {
    return std::any_of(after_contract_.writes.begin(), after_contract_.writes.end(),
                       [&](const WritePromise& w) { return w.target == target; });
  }

  void changed_literals(const ir::Node& bn, const ir::Node& an) {
    for (int k = 0; k < bn.inputs_size(); ++k) {
      const std::optional<Literal> was = literal_of(bn.inputs(k).arg());
      if (!was) continue;
      const ir::Argument* aarg = counterpart(an, bn, k);
      if (aarg == nullptr) continue;
      const std::optional<Literal> now = literal_of(*aarg);
      if (!now || *now == *was) continue;
      emit(sink_, kLiteralChanged, after_.name(),
           fmt::format("{} of node `{}` ({}){} is {} here, {} in the original's node `{}`", input_label(an, k),
                       fx_node_name(an), short_op(an.target()), where(an), now->text, was->text, fx_node_name(bn)))
          .at_node(std::string(fx_node_name(an)))
          .note("the op computes with the new value on every call: a reset BatchNorm eps or momentum, a "
                "changed dim or scale, gives other outputs than the original (pytorch/ao#4758)")
          .fix(fmt::format("keep the original's {} in the pass that rewrote the node; if the change is "
                           "intended, this finding is the record of it",
                           input_label(bn, k)));
    }
  }

  const ir::Program& before_;
  const ir::Program& after_;
  const ProgramContract& before_contract_;
  const ProgramContract& after_contract_;
  const RenameMap& renames_;
  const std::set<std::string, std::less<>>& opt_in_;
  DiagnosticSink& sink_;
  std::set<std::string> reported_;
};

}  // namespace

NodeMatching match_nodes(const ir::Graph& before, const ir::Graph& after) {
  std::vector<int> bm(before.nodes_size(), -1), am(after.nodes_size(), -1);
  // The same op, in the same module, made from the same first node.
  auto op_module_origin = [](const ir::Node& n) -> std::optional<Key> {
    std::string path = module_path(n);
    const Origin o = origin_of(n);
    if (path.empty() && o.root.empty()) return std::nullopt;
    return Key{n.target(), std::move(path), std::string(o.root)};
  };
  match_pass(before, after, bm, am, op_module_origin, op_module_origin);
  // AFTER's node records that it was made from BEFORE's node of that name and op.
  match_pass(
      before, after, bm, am,
      [](const ir::Node& n) -> std::optional<Key> {
        return Key{std::string(fx_node_name(n)), std::string(short_op(n.target())), {}};
      },
      [](const ir::Node& n) -> std::optional<Key> {
        const Origin o = origin_of(n);
        if (o.name.empty()) return std::nullopt;
        return Key{std::string(o.name), std::string(short_op(o.target)), {}};
      });
  auto op_module = [](const ir::Node& n) -> std::optional<Key> {
    std::string path = module_path(n);
    if (path.empty()) return std::nullopt;
    return Key{n.target(), std::move(path), {}};
  };
  match_pass(before, after, bm, am, op_module, op_module);
  auto op_name = [](const ir::Node& n) -> std::optional<Key> {
    return Key{n.target(), std::string(fx_node_name(n)), {}};
  };
  match_pass(before, after, bm, am, op_name, op_name);
  NodeMatching matching;
  matching.before_nodes = before.nodes_size();
  matching.after_nodes = after.nodes_size();
  for (int i = 0; i < before.nodes_size(); ++i)
    if (bm[i] >= 0) matching.pairs.emplace_back(i, bm[i]);
  return matching;
}

void diff_nodes(const ir::Program& before, const ir::Program& after, const ProgramContract& before_contract,
                const ProgramContract& after_contract, const RenameMap& renames,
                const std::set<std::string, std::less<>>& opt_in, DiagnosticSink& sink) {
  NodeDiff(before, after, before_contract, after_contract, renames, opt_in, sink).run();
}

}  // namespace pt2lint
