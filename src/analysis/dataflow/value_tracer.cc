#include "analysis/dataflow/value_tracer.h"

#include <algorithm>

#include "analysis/dataflow/inplace_provenance.h"
#include "analysis/dataflow/subgraph_calls.h"
#include "analysis/program_index.h"
#include "core/ir/tensor_meta_predicates.h"

namespace pt2lint::dataflow {
namespace {

using opschema::OpSchema;
using opschema::ValueType;

// Ops whose schema says the result *may* alias the input: they return it unchanged only
// when no conversion or copy happens, which the tensor metadata shows.
enum class MayAlias { kNo, kConversion, kLayout };
MayAlias may_alias_kind(std::string_view op) {
  if (op == "to" || op == "type_as") return MayAlias::kConversion;
  if (op == "reshape" || op == "reshape_as" || op == "flatten" || op == "contiguous")
    return MayAlias::kLayout;
  return MayAlias::kNo;
}

bool bool_argument_is_true(const ir::Node& node, std::string_view name) {
  for (const ir::NamedArgument& input : node.inputs())
    if (input.name() == name) return input.arg().has_as_bool() && input.arg().as_bool();
  return false;
}

std::string_view first_tensor_argument(const ir::Node& node, const OpSchema& schema) {
  for (const auto& arg : schema.arguments())
    if (arg.type == ValueType::kTensor) return tensor_input(node, arg.name);
  return {};
}

// Ops whose result, elementwise, is computed from its operands' values: a full overwrite made
// of these reads the old value of the state it names (fp8 amax observers, EMAs, clamps).
bool is_elementwise_combination(std::string_view op) {
  static constexpr std::string_view kOps[] = {
      "maximum", "minimum", "fmax", "fmin", "clamp", "clamp_min", "clamp_max", "clip", "lerp", "where",
      "add", "sub", "mul", "div", "addcmul", "addcdiv", "rsub", "max", "min"};
  for (std::string_view known : kOps)
    if (op == known) return true;
  return false;
}

}  // namespace

int ValueTracer::update_of(std::string_view value) {
  const Trace& trace = update_origin(value);
  if (trace.updated) return trace.placeholder;
  const std::vector<int> sources = overwrite_sources(value);
  return sources.size() == 1 ? sources.front() : -1;
}

std::vector<int> ValueTracer::overwrite_sources(std::string_view value) {
  std::vector<int> out;
  collect_overwrite_sources(value, 0, out);
  std::sort(out.begin(), out.end());
  out.erase(std::unique(out.begin(), out.end()), out.end());
  return out;
}

void ValueTracer::collect_overwrite_sources(std::string_view value, int depth, std::vector<int>& out) {
  const std::optional<ValueDef> def = index_.definition(value);
  if (!def || def->node < 0 || depth >= kOverwriteDepth) return;
  const OpSchema* schema = ops_.schema(def->node);
  if (schema == nullptr || !is_elementwise_combination(schema->base_name())) return;
  const ir::Node& node = index_.graph().nodes(def->node);
  if (output_slot(node, value) != 0) return;  // max.dim's indices are not a combination
  for (const ir::NamedArgument& input : node.inputs()) {
    const std::string_view operand = tensor_input(node, input.name());
    if (operand.empty()) continue;
    const int root = alias_root(operand).placeholder;
    if (root >= 0) out.push_back(root);
    else collect_overwrite_sources(operand, depth + 1, out);
  }
}

std::string_view step_kind_name(StepKind kind) {
  switch (kind) {
    case StepKind::kPlaceholder: return "placeholder";
    case StepKind::kView: return "view";
    case StepKind::kInPlace: return "in-place write";
    case StepKind::kFunctionalOut: return "functional update";
    case StepKind::kWriteForm: return "write-form update";
    case StepKind::kFunctionalTwin: return "functionalized in-place op";
    case StepKind::kOpaque: return "fresh value";
  }
  return "";
}

namespace {

bool is_update_step(StepKind kind) {
  return kind == StepKind::kInPlace || kind == StepKind::kFunctionalOut ||
         kind == StepKind::kWriteForm || kind == StepKind::kFunctionalTwin;
}

}  // namespace

ValueTracer::ValueTracer(const ProgramIndex& index, NodeOps& ops) : index_(index), ops_(ops) {}

bool ValueTracer::may_update(int node) { return ops_.facts(node).may_update; }

bool ValueTracer::returns_input_unchanged(const ir::Node& node, const OpSchema& schema,
                                          std::string_view input, std::string_view output) const {
  MayAlias kind = may_alias_kind(schema.base_name());
  if (kind == MayAlias::kNo) return true;  // a true view
  const ir::TensorMeta* in = index_.tensor_meta(input);
  const ir::TensorMeta* out = index_.tensor_meta(output);
  if (in == nullptr || out == nullptr) return false;
  if (in->dtype() != out->dtype() || !same_device(in->device(), out->device())) return false;
  if (kind == MayAlias::kConversion) return !bool_argument_is_true(node, "copy");
  // Known strides that are not row-major: a reshape or contiguous() has to copy.
  return contiguity(*in) != Contiguity::kNonContiguous;
}

TraceStep ValueTracer::step(std::string_view value, bool follow_updates) {
  TraceStep s;
  s.value = value;
  std::optional<ValueDef> def = index_.definition(value);
  if (!def) return s;
  if (def->placeholder >= 0) {
    s.kind = StepKind::kPlaceholder;
    s.placeholder = def->placeholder;
    return s;
  }
  s.node = def->node;
  if (const AutoFunctionalizedCall* call = ops_.auto_functionalized(def->node)) {
    if (follow_updates) {
      for (const AutoFunctionalizedCall::Update& update : call->updates) {
        if (update.updated != value) continue;
        s.kind = StepKind::kFunctionalOut;  // the new value of the base it names
        s.next = update.base;
      }
    }
    return s;
  }
  const OpSchema* schema = ops_.schema(def->node);
  if (schema == nullptr) {
    if (index_.subgraph_nodes().empty()) return s;
    return call_output_step(s, index_.graph().nodes(def->node), value);
  }
  const ir::Node& node = index_.graph().nodes(def->node);
  int slot = output_slot(node, value);
  auto returns = schema->returns();
  if (slot < 0 || slot >= static_cast<int>(returns.size())) return s;
  const opschema::ReturnRecord& ret = returns[slot];

  if (ret.aliases_argument >= 0) {
    const opschema::ArgumentRecord& arg = schema->arguments()[ret.aliases_argument];
    std::string_view input = tensor_input(node, arg.name);
    if (input.empty()) return s;
    if (ret.writes || arg.writes) {
      s.kind = StepKind::kInPlace;
    } else if (returns_input_unchanged(node, *schema, input, value)) {
      s.kind = StepKind::kView;
    } else {
      return s;
    }
    s.next = input;
    return s;
  }
  if (schema->base_name() == "type_as") {  // unannotated, yet returns self when dtypes match
    std::string_view input = tensor_input(node, "self");
    if (!input.empty() && returns_input_unchanged(node, *schema, input, value)) {
      s.kind = StepKind::kView;
      s.next = input;
    }
    return s;
  }
  if (!follow_updates) return s;

  if (ret.name.size() > 4 && ret.name.ends_with("_out")) {
    std::string_view input = tensor_input(node, ret.name.substr(0, ret.name.size() - 4));
    if (!input.empty()) {
      s.kind = StepKind::kFunctionalOut;
      s.next = input;
      return s;
    }
  }
  if (slot != 0) return s;
  if (is_write_form_op(schema->base_name())) {
    s.next = first_tensor_argument(node, *schema);
    if (!s.next.empty()) s.kind = StepKind::kWriteForm;
    return s;
  }
  if (std::optional<OpSchema> twin = schema->inplace_twin()) {
    for (const auto& arg : twin->arguments()) {
      if (!arg.writes) continue;
      s.next = tensor_input(node, arg.name);
      if (!s.next.empty()) s.kind = StepKind::kFunctionalTwin;
      break;
    }
  }
  return s;
}

TraceStep ValueTracer::call_output_step(TraceStep s, const ir::Node& node, std::string_view value) {
  const int slot = output_slot(node, value);
  if (slot < 0) return s;
  // Subgraph calls are rare: their outputs are worked out once per node.
  auto [it, inserted] = call_aliases_.try_emplace(s.node);
  if (inserted) it->second = call_output_aliases(node);
  if (slot >= static_cast<int>(it->second.size())) return s;
  const CallOutputAlias& alias = it->second[static_cast<std::size_t>(slot)];
  if (alias.value.empty()) return s;
  s.kind = alias.written && alias.same_tensor ? StepKind::kInPlace : StepKind::kView;
  s.next = alias.value;
  return s;
}

bool ValueTracer::confirm(const TraceStep& s) {
  if (s.kind == StepKind::kWriteForm) return created_from_any_inplace_op(index_, s.node);
  if (s.kind == StepKind::kFunctionalTwin) {
    const OpSchema* schema = ops_.schema(s.node);
    std::optional<OpSchema> twin = schema ? schema->inplace_twin() : std::nullopt;
    return twin && created_from(index_, s.node, *twin);
  }
  return true;
}

const Trace& ValueTracer::resolve(std::string_view value, bool follow_updates) {
  auto& memo = follow_updates ? update_memo_ : alias_memo_;
  if (auto it = memo.find(value); it != memo.end()) return it->second;

  // Walk back iteratively (chains can be as long as the graph), then fill the memo from
  // the far end so every value on the way is answered once.
  path_.clear();
  Trace result;
  const std::size_t limit = static_cast<std::size_t>(index_.graph().nodes_size()) + 2;
  std::string_view current = value;
  while (true) {
    if (auto it = memo.find(current); it != memo.end()) {
      result = it->second;
      break;
    }
    TraceStep s = step(current, follow_updates);
    path_.push_back(s);
    if (s.kind == StepKind::kPlaceholder) {
      result.placeholder = s.placeholder;
      break;
    }
    if (s.kind == StepKind::kOpaque || path_.size() > limit) break;
    current = s.next;
  }
  for (auto it = path_.rbegin(); it != path_.rend(); ++it) {
    if (it->kind != StepKind::kPlaceholder && it->kind != StepKind::kOpaque &&
        result.placeholder >= 0 && is_update_step(it->kind)) {
      if (confirm(*it)) {
        result.updated = true;
        result.update_node = it->node;
      } else {
        result = Trace{};
      }
    }
    memo.insert_or_assign(it->value, result);
  }
  return memo.at(value);
}

bool ValueTracer::updates_a_view(std::string_view value) {
  const std::vector<TraceStep> steps = chain(value, true);
  for (std::size_t i = 0; i + 1 < steps.size(); ++i)
    switch (steps[i].kind) {
      case StepKind::kInPlace:
      case StepKind::kFunctionalOut:
      case StepKind::kWriteForm:
      case StepKind::kFunctionalTwin:
        return steps[i + 1].kind == StepKind::kView;
      default:
        break;
    }
  return false;
}

std::vector<TraceStep> ValueTracer::chain(std::string_view value, bool follow_updates) {
  std::vector<TraceStep> steps;
  const std::size_t limit = static_cast<std::size_t>(index_.graph().nodes_size()) + 2;
  std::string_view current = value;
  while (steps.size() <= limit) {
    TraceStep s = step(current, follow_updates);
    if (is_update_step(s.kind) && !confirm(s)) s.kind = StepKind::kOpaque;
    steps.push_back(s);
    if (s.kind == StepKind::kPlaceholder || s.kind == StepKind::kOpaque) break;
    current = s.next;
  }
  return steps;
}

}  // namespace pt2lint::dataflow
