#include "analysis/state/cache_ranges.h"

#include <fmt/format.h>

#include <algorithm>
#include <limits>
#include <map>
#include <optional>

#include "analysis/program_index.h"
#include "core/check_result.h"

namespace pt2lint {
namespace {

constexpr std::int64_t kUnbounded = std::int64_t{1} << 62;  // past it, a bound means "none"

// A sum of integer multiples of symbols plus a constant: the sympy expressions torch.export
// writes for positions and lengths ("Add(Symbol('s27', ...), Symbol('u0', ...))").
struct Linear {
  std::map<std::string, std::int64_t, std::less<>> terms;
  std::int64_t constant = 0;
  bool ok = true;
  bool symbolic() const { return !terms.empty(); }
};

Linear constant(std::int64_t value) { return Linear{{}, value, true}; }
Linear unknown() { return Linear{{}, 0, false}; }

Linear add(Linear a, const Linear& b, std::int64_t sign = 1) {
  if (!a.ok || !b.ok) return unknown();
  for (const auto& [name, coeff] : b.terms)
    if ((a.terms[name] += sign * coeff) == 0) a.terms.erase(name);
  a.constant += sign * b.constant;
  return a;
}

// The top-level arguments of "Head(arg, arg, ...)", split at commas outside parentheses and quotes.
std::optional<std::vector<std::string_view>> call_arguments(std::string_view text, std::string_view head) {
  if (!text.starts_with(head) || text.size() < head.size() + 2 || text[head.size()] != '(' || text.back() != ')')
    return std::nullopt;
  std::string_view body = text.substr(head.size() + 1, text.size() - head.size() - 2);
  std::vector<std::string_view> args;
  int depth = 0;
  bool quoted = false;
  std::size_t begin = 0;
  for (std::size_t i = 0; i < body.size(); ++i) {
    const char c = body[i];
    if (c == '\'') quoted = !quoted;
    if (quoted) continue;
    if (c == '(') ++depth;
    if (c == ')') --depth;
    if (c == ',' && depth == 0) {
      args.push_back(body.substr(begin, i - begin));
      begin = i + 1;
    }
  }
  args.push_back(body.substr(begin));
  for (std::string_view& arg : args) {
    while (!arg.empty() && arg.front() == ' ') arg.remove_prefix(1);
    while (!arg.empty() && arg.back() == ' ') arg.remove_suffix(1);
  }
  return args;
}

Linear parse_sympy(std::string_view text, int depth = 0) {
  if (depth > 16) return unknown();
  if (text == "Zero()") return constant(0);
  if (text == "One()") return constant(1);
  if (text == "NegativeOne()") return constant(-1);
  if (auto args = call_arguments(text, "Integer"); args && args->size() == 1) {
    std::int64_t value = 0;
    const std::string_view digits = (*args)[0];
    bool negative = !digits.empty() && digits[0] == '-';
    if (digits.size() <= (negative ? 1u : 0u) || digits.size() > 18) return unknown();
    for (char c : digits.substr(negative ? 1 : 0)) {
      if (c < '0' || c > '9') return unknown();
      value = value * 10 + (c - '0');
    }
    return constant(negative ? -value : value);
  }
  if (auto args = call_arguments(text, "Symbol"); args && !args->empty()) {
    std::string_view name = (*args)[0];
    if (name.size() < 3 || name.front() != '\'' || name.back() != '\'') return unknown();
    Linear out;
    out.terms.emplace(std::string(name.substr(1, name.size() - 2)), 1);
    return out;
  }
  if (auto args = call_arguments(text, "Add")) {
    Linear sum = constant(0);
    for (std::string_view arg : *args) sum = add(sum, parse_sympy(arg, depth + 1));
    return sum;
  }
  if (auto args = call_arguments(text, "Mul"); args && args->size() == 2) {
    Linear a = parse_sympy((*args)[0], depth + 1), b = parse_sympy((*args)[1], depth + 1);
    if (!a.ok || !b.ok || (a.symbolic() && b.symbolic())) return unknown();
    if (a.symbolic()) std::swap(a, b);
    for (auto& [name, coeff] : b.terms) coeff *= a.constant;
    b.constant *= a.constant;
    return b;
  }
  return unknown();
}

struct Bounds {
  std::int64_t lo = -kUnbounded, hi = kUnbounded;
};

// What the program says about its symbols and symbolic values.
class SymbolFacts {
 public:
  explicit SymbolFacts(const ProgramIndex& index) : index_(index) {
    for (const ir::RangeConstraintEntry& entry : index.exported().range_constraints()) {
      Bounds& b = ranges_[entry.key()];
      if (entry.value().has_min_val() && entry.value().min_val() > -kUnbounded) b.lo = entry.value().min_val();
      if (entry.value().has_max_val() && entry.value().max_val() < kUnbounded) b.hi = entry.value().max_val();
    }
    for (const ir::SymIntEntry& entry : index.graph().sym_int_values()) {
      if (values_.count(entry.key()) != 0) continue;
      values_.emplace(entry.key(), entry.value().has_as_int() ? constant(entry.value().as_int())
                                   : entry.value().has_as_expr() ? parse_sympy(entry.value().as_expr().expr_str())
                                                                 : unknown());
    }
    collect_assertions();
  }

  // The linear form of a node argument (an int or a symbolic int).
  Linear argument(const ir::Node& node, std::string_view name, std::optional<std::int64_t> absent) const {
    for (const ir::NamedArgument& input : node.inputs()) {
      if (input.name() != name) continue;
      const ir::Argument& arg = input.arg();
      if (arg.has_as_int()) return constant(arg.as_int());
      if (arg.has_as_sym_int()) {
        if (arg.as_sym_int().has_as_int()) return constant(arg.as_sym_int().as_int());
        return value(arg.as_sym_int().as_name());
      }
      if (arg.has_as_none() && absent) return constant(*absent);
      return unknown();
    }
    return absent ? constant(*absent) : unknown();
  }

  // The largest value `form` can take under the ranges and the runtime assertions, and what
  // sets it (a bound missing, an assertion); not a failure: kUnbounded is a value the caller
  // judges.
  struct UpperBound {
    std::int64_t value = 0;
    std::string why;
  };
  UpperBound upper_bound(const Linear& form) const {
    std::int64_t hi = form.constant;
    std::string why;
    for (const auto& [name, coeff] : form.terms) {
      auto it = ranges_.find(name);
      const Bounds b = it == ranges_.end() ? Bounds{} : it->second;
      const std::int64_t edge = coeff > 0 ? b.hi : b.lo;
      if (edge >= kUnbounded || edge <= -kUnbounded) {
        why = fmt::format("symbol `{}` has no {} bound in range_constraints", name, coeff > 0 ? "upper" : "lower");
        hi = kUnbounded;
        break;
      }
      hi += coeff * edge;
    }
    // An assertion on the very sum (`s27 + u0 <= 8`) caps it further.
    for (const Linear& le_zero : assertions_) {
      if (le_zero.terms != form.terms || !form.symbolic()) continue;
      const std::int64_t cap = form.constant - le_zero.constant;
      if (cap < hi) {
        hi = cap;
        why = fmt::format("a runtime assertion of the program caps it at {}", cap);
      }
    }
    return {hi, std::move(why)};
  }

 private:
  Linear value(std::string_view name) const {
    auto it = values_.find(name);
    return it == values_.end() ? unknown() : it->second;
  }

  // `_assert_scalar(le(a, b))` and friends, as "form <= 0"; one-symbol forms tighten its range.
  void collect_assertions() {
    const ir::Graph& graph = index_.graph();
    // The op's id among the interned targets: one compare per distinct target, not per node.
    int assert_op = -1;
    for (int op = 0; op < index_.op_count(); ++op) {
      if (index_.op_name(op) == "torch.ops.aten._assert_scalar.default") assert_op = op;
    }
    if (assert_op < 0) return;
    for (int n = 0; n < graph.nodes_size(); ++n) {
      const ir::Node& node = graph.nodes(n);
      if (index_.node_op(n) != assert_op || node.inputs_size() == 0) continue;
      const ir::Argument& cond = node.inputs(0).arg();
      if (!cond.has_as_sym_bool() || !cond.as_sym_bool().has_as_name()) continue;
      const std::optional<ValueDef> def = index_.definition(cond.as_sym_bool().as_name());
      if (!def || def->node < 0) continue;
      const ir::Node& compare = graph.nodes(def->node);
      const std::string_view op = compare.target();
      const Linear a = argument(compare, "a", std::nullopt), b = argument(compare, "b", std::nullopt);
      if (!a.ok || !b.ok) continue;
      Linear le_zero;
      if (op == "_operator.le") le_zero = add(a, b, -1);
      else if (op == "_operator.lt") le_zero = add(add(a, b, -1), constant(1));
      else if (op == "_operator.ge") le_zero = add(b, a, -1);
      else if (op == "_operator.gt") le_zero = add(add(b, a, -1), constant(1));
      else continue;
      if (le_zero.terms.size() == 1) {
        const auto& [name, coeff] = *le_zero.terms.begin();
        Bounds& bounds = ranges_[name];
        if (coeff == 1) bounds.hi = std::min(bounds.hi, -le_zero.constant);
        if (coeff == -1) bounds.lo = std::max(bounds.lo, le_zero.constant);
      }
      assertions_.push_back(std::move(le_zero));
    }
  }

  const ProgramIndex& index_;
  std::map<std::string, Bounds, std::less<>> ranges_;
  std::map<std::string, Linear, std::less<>> values_;
  std::vector<Linear> assertions_;
};

std::string_view op_of(const ir::Node& node) {
  std::string_view target = node.target();
  if (target.starts_with("torch.ops.")) target.remove_prefix(10);
  return target;
}

// The buffer placeholder a tensor argument is, or -1.
int buffer_argument(const ProgramIndex& index, const ir::Node& node, std::string_view name) {
  for (const ir::NamedArgument& input : node.inputs()) {
    if (input.name() != name || !input.arg().has_as_tensor()) continue;
    const std::optional<ValueDef> def = index.definition(input.arg().as_tensor().name());
    if (!def || def->placeholder < 0) return -1;
    const ir::InputSpec* spec = index.input_spec_for(input.arg().as_tensor().name());
    return spec != nullptr && spec->has_buffer() ? def->placeholder : -1;
  }
  return -1;
}

std::int64_t int_argument(const ir::Node& node, std::string_view name, std::int64_t absent) {
  for (const ir::NamedArgument& input : node.inputs())
    if (input.name() == name && input.arg().has_as_int()) return input.arg().as_int();
  return absent;
}

std::string tensor_argument(const ir::Node& node, std::string_view name) {
  for (const ir::NamedArgument& input : node.inputs())
    if (input.name() == name && input.arg().has_as_tensor()) return input.arg().as_tensor().name();
  return {};
}

// The dimension index_put indexes: the place of the one tensor among its `indices` (the others
// None), with that tensor's name; or why it cannot say.
struct IndexedDim {
  std::int64_t dim = -1;
  std::string positions;
  std::string undecidable;
};

IndexedDim indexed_dimension(const ir::Node& node) {
  IndexedDim indexed;
  for (const ir::NamedArgument& input : node.inputs()) {
    if (input.name() != "indices" || !input.arg().has_as_optional_tensors()) continue;
    const auto& items = input.arg().as_optional_tensors().items();
    for (int k = 0; k < items.size(); ++k) {
      if (!items[k].has_as_tensor()) continue;
      if (indexed.dim >= 0) {
        indexed.undecidable = "it is indexed along several dimensions at once";
        return indexed;
      }
      indexed.dim = k;
      indexed.positions = items[k].as_tensor().name();
    }
  }
  if (indexed.dim < 0) indexed.undecidable = "its indices are not a list of tensors pt2lint can read";
  return indexed;
}

// Where a tensor of write positions comes from: the arange node that makes it (or -1), the
// integer it is shifted by on the way, and the last value followed (for messages).
struct Positions {
  int arange = -1;
  Linear shift = constant(0);
  std::string source;
};

// Follows `name` back through views and copies that keep its values (view, reshape, unsqueeze,
// squeeze, clone, to, _to_copy, alias, expand) and through add/sub of an integer, to an
// arange(start, end) of step 1.
Positions follow_positions(const ProgramIndex& index, const SymbolFacts& facts, std::string name) {
  Positions found;
  found.source = name;
  const ir::Graph& graph = index.graph();
  for (int hops = 0; hops < 16 && !name.empty(); ++hops) {
    const std::optional<ValueDef> def = index.definition(name);
    if (!def || def->node < 0) return found;
    const ir::Node& made = graph.nodes(def->node);
    const std::string_view op = op_of(made);
    if (op == "aten.arange.default" || op == "aten.arange.start" || op == "aten.arange.start_step") {
      const Linear step = facts.argument(made, "step", 1);
      if (step.ok && !step.symbolic() && step.constant == 1) found.arange = def->node;
      return found;
    }
    const bool keeps = op.starts_with("aten.view.") || op.starts_with("aten.reshape.") ||
                       op.starts_with("aten.unsqueeze.") || op.starts_with("aten.squeeze.") ||
                       op.starts_with("aten.clone.") || op.starts_with("aten.to.") || op.starts_with("aten._to_copy.") ||
                       op.starts_with("aten.alias.") || op.starts_with("aten.expand.") ||
                       op.starts_with("aten._unsafe_view.");
    const bool shifts = op == "aten.add.Tensor" || op == "aten.add.Scalar" || op == "aten.sub.Tensor" ||
                        op == "aten.sub.Scalar";
    if (shifts) {
      const Linear by = facts.argument(made, "other", std::nullopt);
      const Linear alpha = facts.argument(made, "alpha", 1);
      if (!by.ok || !alpha.ok || alpha.symbolic() || alpha.constant != 1) return found;
      found.shift = add(found.shift, by, op.starts_with("aten.sub") ? -1 : 1);
    } else if (!keeps) {
      return found;
    }
    name = tensor_argument(made, "self");
    if (!name.empty()) found.source = name;
  }
  return found;
}

// A write of `placeholder` along `dim` from `start` to `end` by `node`.
struct Site {
  int node;
  int placeholder;
  std::int64_t dim;
  Linear start, end;
  std::string undecidable;  // set for writes at a tensor of positions
};

std::optional<Site> site_of(const ProgramIndex& index, const SymbolFacts& facts, int n) {
  const ir::Graph& graph = index.graph();
  const ir::Node& node = graph.nodes(n);
  const std::string_view op = op_of(node);
  constexpr std::int64_t kToEnd = std::numeric_limits<std::int64_t>::max();
  if (op == "aten.slice_scatter.default") {
    const int p = buffer_argument(index, node, "self");
    if (p < 0) return std::nullopt;
    return Site{n, p, int_argument(node, "dim", 0), facts.argument(node, "start", 0), facts.argument(node, "end", kToEnd), {}};
  }
  if (op == "aten.index_copy_.default" || op == "aten.index_copy.default" || op == "aten.index_put_.default" ||
      op == "aten.index_put.default") {
    const int p = buffer_argument(index, node, "self");
    if (p < 0) return std::nullopt;
    const bool copy = op.starts_with("aten.index_copy");
    Site site{n, p, copy ? int_argument(node, "dim", 0) : 0, unknown(), unknown(), {}};
    std::string positions = copy ? tensor_argument(node, "index") : "";
    if (!copy) {
      // index_put(cache, [None, None, positions], values): the one tensor of `indices` indexes
      // the dimension at its place (transformers' StaticCache after run_decompositions).
      const IndexedDim indexed = indexed_dimension(node);
      if (!indexed.undecidable.empty()) {
        site.undecidable = indexed.undecidable;
        return site;
      }
      site.dim = indexed.dim;
      positions = indexed.positions;
    }
    // Positions made by arange(start, end) (step 1), maybe shifted by an integer and viewed,
    // are the range [start, end) shifted.
    const Positions made = follow_positions(index, facts, positions);
    if (made.arange >= 0) {
      const ir::Node& range = graph.nodes(made.arange);
      const std::string_view range_op = op_of(range);
      site.start = add(range_op == "aten.arange.default" ? constant(0) : facts.argument(range, "start", 0), made.shift);
      site.end = add(facts.argument(range, "end", std::nullopt), made.shift);
      return site;
    }
    site.undecidable = fmt::format("it is written at the positions held by tensor `{}`{}, whose values torch.export "
                                   "records no range for",
                                   made.source, made.source == positions ? "" : fmt::format(" (through `{}`)", positions));
    return site;
  }
  if (op != "aten.copy_.default" && op != "aten.fill_.Scalar" && op != "aten.fill_.Tensor" && op != "aten.zero_.default")
    return std::nullopt;
  const std::string written = tensor_argument(node, "self");
  const std::optional<ValueDef> def = index.definition(written);
  if (!def || def->node < 0) return std::nullopt;
  const ir::Node& view = graph.nodes(def->node);
  const std::string_view view_op = op_of(view);
  const int p = buffer_argument(index, view, "self");
  if (p < 0) return std::nullopt;
  if (view_op == "aten.narrow.default") {
    Linear start = facts.argument(view, "start", std::nullopt);
    return Site{n, p, int_argument(view, "dim", 0), start, add(start, facts.argument(view, "length", std::nullopt)), {}};
  }
  if (view_op == "aten.slice.Tensor")
    return Site{n, p, int_argument(view, "dim", 0), facts.argument(view, "start", 0), facts.argument(view, "end", kToEnd), {}};
  return std::nullopt;
}

void judge(const ProgramIndex& index, const SymbolFacts& facts, const Site& site, CacheWrite& write) {
  const std::string_view placeholder = index.placeholder_names()[static_cast<std::size_t>(site.placeholder)];
  const ir::TensorMeta* meta = index.tensor_meta(placeholder);
  std::int64_t dim = site.dim;
  if (meta != nullptr && dim < 0) dim += meta->sizes_size();
  write.dim = static_cast<int>(dim);
  if (!site.undecidable.empty()) {
    write.why = site.undecidable;
    return;
  }
  if (meta == nullptr || dim < 0 || dim >= meta->sizes_size() || !meta->sizes(static_cast<int>(dim)).has_as_int()) {
    write.why = "its extent along the written dimension is not a number";
    return;
  }
  write.extent = meta->sizes(static_cast<int>(dim)).as_int();
  if (!site.end.ok || !site.start.ok) {
    write.why = "its write position is not a sum of symbols and integers";
    return;
  }
  if (!site.end.symbolic() && site.end.constant >= kUnbounded) {  // slice to the end
    write.max_end = write.extent;
    write.verdict = CacheRange::kInBounds;
    return;
  }
  auto bound = facts.upper_bound(site.end);
  write.max_end = bound.value;
  write.why = std::move(bound.why);
  if (write.max_end >= kUnbounded) {
    write.verdict = CacheRange::kUndecidable;
    return;
  }
  if (write.max_end > write.extent) write.verdict = CacheRange::kCanExceed;
  else if (site.start.symbolic() && write.max_end < write.extent) write.verdict = CacheRange::kCapped;
  else write.verdict = CacheRange::kInBounds;
}

}  // namespace

std::vector<CacheWrite> find_cache_writes(const ProgramIndex& index) {
  std::vector<CacheWrite> writes;
  std::optional<SymbolFacts> facts;  // built at the first candidate write
  const ir::Graph& graph = index.graph();
  // Which targets may write a buffer at a range, decided once per distinct target.
  std::vector<bool> may_write(static_cast<std::size_t>(index.op_count()));
  for (int op = 0; op < index.op_count(); ++op) {
    std::string_view name = index.op_name(op);
    if (name.starts_with("torch.ops.")) name.remove_prefix(10);
    may_write[static_cast<std::size_t>(op)] =
        name.starts_with("aten.slice_scatter") || name.starts_with("aten.index_") ||
        name.starts_with("aten.copy_") || name.starts_with("aten.fill_") || name.starts_with("aten.zero_");
  }
  for (int n = 0; n < graph.nodes_size(); ++n) {
    if (!may_write[static_cast<std::size_t>(index.node_op(n))]) continue;
    if (!facts) facts.emplace(index);
    const std::optional<Site> site = site_of(index, *facts, n);
    if (!site) continue;
    const std::string_view placeholder = index.placeholder_names()[static_cast<std::size_t>(site->placeholder)];
    const ir::InputSpec* spec = index.input_spec_for(placeholder);
    CacheWrite write;
    write.target = spec->buffer().buffer_name();
    write.input_spec = index.input_spec_index(placeholder).value_or(-1);
    write.node = n;
    judge(index, *facts, *site, write);
    writes.push_back(std::move(write));
  }
  return writes;
}

const std::vector<CacheWrite>& cache_writes(const ProgramIndex& index) {
  return index.cache_writes();
}

void summarize_cache_ranges(const ProgramIndex& index, ProgramSummary& summary) {
  for (const CacheWrite& write : cache_writes(index)) {
    if (write.verdict != CacheRange::kUndecidable) continue;
    summary.undecided.push_back(fmt::format("range of the write to buffer `{}` by node `{}` ({}): undecidable: {}",
                                            write.target, index.node_name(write.node),
                                            op_of(index.graph().nodes(write.node)), write.why));
  }
}

}  // namespace pt2lint
