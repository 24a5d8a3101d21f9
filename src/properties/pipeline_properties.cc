#include "properties/pipeline_properties.h"

#include <algorithm>
#include <functional>
#include <iterator>
#include <map>
#include <optional>
#include <set>
#include <utility>

#include <fmt/format.h>

#include "analysis/dataflow/subgraph_calls.h"
#include "analysis/opschema/schema_catalog.h"
#include "core/ir/ir_accessors.h"
#include "contract/contract_diff.h"
#include "contract/mutation_contract.h"
#include "analysis/program_index.h"
#include "core/diagnostic_sink.h"
#include "core/rule_catalogue.h"
#include "diagnosis/output_facts.h"
#include "diagnosis/repair_program.h"
#include "engine/engine.h"
#include "io/readers/load_bytes.h"
#include "io/writers/program_json_writer.h"
#include "lowering/lower_program.h"
#include "support/status.h"
#include "properties/ir_walk.h"
#include "properties/report_checks.h"

namespace pt2lint::properties {
namespace {

struct Checked {
  std::vector<Finding> findings;
  ProgramSummary summary;
  const Finding* first_error() const {
    for (const Finding& f : findings) if (f.severity == Severity::kError) return &f;
    return nullptr;
  }
};

Checked check(const ir::Program& program, const RuleRegistry& registry) {
  const Engine engine(registry, RuleFilter{});
  CollectingSink sink;
  Checked out;
  out.summary = engine.check_program(program, sink);
  out.findings = sink.take();
  return out;
}

// Higher-order ops whose effects pt2lint models: their subgraphs are followed, or they are
// decoded functional calls whose writes are their outputs, or they compute fresh values.
constexpr std::string_view kModelledHigherOrder[] = {
    "cond", "while_loop", "map_impl", "scan", "associative_scan", "invoke_subgraph", "wrap_with_set_grad_enabled",
    "wrap_with_autocast", "flex_attention", "auto_functionalized", "auto_functionalized_v2",
    "triton_kernel_wrapper_functional", "with_effects", "out_dtype", "run_and_save_rng_state", "run_with_rng_state"};

bool outside_schema_table(std::string_view target, bool functional_dialect) {
  if (target.starts_with(kHigherOrderPrefix)) {
    const std::string_view op = target.substr(kHigherOrderPrefix.size());
    return std::find(std::begin(kModelledHigherOrder), std::end(kModelledHigherOrder), op) ==
           std::end(kModelledHigherOrder);
  }
  if (functional_dialect) return false;  // ATEN is functional by contract
  const std::optional<opschema::OperatorName> name = opschema::parse_serialized_target(target);
  return name && !opschema::lookup_schema(*name, nullptr).schema;
}

void collect_tensors(const ir::Argument& arg, std::vector<std::string_view>& out, int depth) {
  if (arg.has_as_tensor()) out.push_back(arg.as_tensor().name());
  if (arg.has_as_optional_tensor() && arg.as_optional_tensor().has_as_tensor())
    out.push_back(arg.as_optional_tensor().as_tensor().name());
  if (arg.has_as_tensors())
    for (const ir::TensorArgument& t : arg.as_tensors().items()) out.push_back(t.name());
  if (arg.has_as_optional_tensors())
    for (const ir::OptionalTensorArgument& t : arg.as_optional_tensors().items())
      if (t.has_as_tensor()) out.push_back(t.as_tensor().name());
  if (arg.has_as_string_to_argument() && depth < 8)
    for (const ir::StringToArgumentEntry& e : arg.as_string_to_argument().items()) collect_tensors(e.value(), out, depth + 1);
}

std::vector<std::string_view> tensors_passed(const ir::Node& node) {
  std::vector<std::string_view> out;
  for (const ir::NamedArgument& input : node.inputs()) collect_tensors(input.arg(), out, 0);
  return out;
}

std::string describe(const Finding& f) { return fmt::format("{} [{} {}]", f.message, f.rule_id, f.rule_name); }

// What `lower` writes for a .json input, read back by the JSON reader: the lowered program
// must survive its own file format, not only live in memory.
// A program without a schema version (possible in a hand-written textproto only) has no
// JSON form: the reader requires the field, so it stays in memory.
Expected<ir::Program> json_round_trip(const ir::Program& program) {
  if (!program.program().has_schema_version()) return program;
  const std::string json = to_pytorch_json(program.program());
  LoadedFile loaded;
  CollectingSink sink;
  load_bytes(json, program.name() + ".json", LoadOptions{}, loaded, sink);
  for (const Finding& f : sink.findings()) {
    if (f.severity != Severity::kError) continue;
    return Status::error(describe(f));
  }
  if (loaded.programs.size() != 1) return Status::error(fmt::format("{} programs read back", loaded.programs.size()));
  ir::Program out = std::move(loaded.programs.front());
  out.set_name(program.name());
  return out;
}

// Writes of a contract and of an effective mutation set, as sorted "kind target" texts.
std::vector<std::string> write_keys(const ProgramContract& contract) {
  std::vector<std::string> keys;
  for (const WritePromise& w : contract.writes) keys.push_back(fmt::format("{} {}", state_kind_name(w.kind), w.target));
  std::sort(keys.begin(), keys.end());
  return keys;
}
std::vector<std::string> write_keys(const ProgramSummary& summary) {
  std::vector<std::string> keys;
  for (const MutationSummary& m : summary.mutations) keys.push_back(fmt::format("{} {}", state_kind_name(m.kind), m.target));
  std::sort(keys.begin(), keys.end());
  return keys;
}

std::string joined(const std::vector<std::string>& items) {
  std::string out;
  for (const std::string& item : items) {
    if (!out.empty()) out += ", ";
    out += item;
  }
  return "{" + out + "}";
}

class PropertyRun {
 public:
  PropertyRun(const RuleRegistry& registry, std::vector<std::string>& violations, int& repairs_checked)
      : registry_(registry), violations_(violations), repairs_checked_(repairs_checked) {}

  // Every property of one program; returns what check reports on it.
  Checked run(const ir::Program& x) {
    Checked checked = check(x, registry_);
    const ProgramContract contract = derive_contract(x);
    diff_self_is_empty(x, contract);
    const bool clean = checked.first_error() == nullptr;
    if (clean && checked.summary.dialect == "ATEN" && write_keys(contract) != write_keys(checked.summary))
      fail("contract-matches-mutation-set", x, fmt::format("contract writes {}, effective mutation set {}",
                                                          joined(write_keys(contract)), joined(write_keys(checked.summary))));
    unknown_op_state_possibly_written(x, contract);
    lower_properties(x, contract, clean);
    if (clean) swap_is_reported(x, contract);
    else fix_properties(x);
    return checked;
  }

 private:
  void fail(std::string_view property, const ir::Program& x, const std::string& detail) {
    violations_.push_back(fmt::format("{}: program `{}`: {}", property, x.name(), detail));
  }

  void diff_self_is_empty(const ir::Program& x, const ProgramContract& contract) {
    CollectingSink sink;
    diff_contracts(contract, contract, {}, sink);
    // PT414 is allowed: state passed to an op of unknown schema is undecidable by design,
    // even against the same program (docs/reliability.md).
    for (const Finding& f : sink.findings())
      if (f.rule_id != kWriteBackUndecidable.id) fail("diff-self-empty", x, describe(f));
  }

  void lower_properties(const ir::Program& x, const ProgramContract& contract, bool clean) {
    // What `pt2lint lower` does to each program (lowering/lower_program.h), in memory, with
    // no --op-schemas or --rename-nested.
    const lowering::LowerSettings settings{nullptr, "FILE", false};
    ir::Program once_lowered = x;
    if (!lowering::lower_in_memory(once_lowered, settings).ok()) return;  // refusing is always allowed
    Expected<ir::Program> lowered = json_round_trip(once_lowered);
    if (!lowered.ok())
      return fail("lower-output-checks-clean", x, "the lowered program does not read back: " + lowered.message());
    if (const Finding* error = check(lowered.value(), registry_).first_error())
      return fail("lower-output-checks-clean", x, "check finds an error in lower(x): " + describe(*error));
    const ProgramContract once = derive_contract(lowered.value());
    if (clean) {
      CollectingSink sink;
      diff_contracts(contract, once, {}, sink);
      // Shapes are left out: check does not infer them, so a program whose metadata lies
      // (an in-place op declared to change its input's shape) is clean, and lower rightly
      // gives the new value its input's shape. Which state is written, and from what, is exact.
      for (const Finding& f : sink.findings())
        if (f.severity == Severity::kError && f.rule_id != kWriteBackShapeChanged.id &&
            f.rule_id != kUserOutputChanged.id)
          fail("lower-keeps-contract", x, "diff(x, lower(x)): " + describe(f));
    }
    ir::Program twice = lowered.value();
    if (const auto again = lowering::lower_in_memory(twice, settings); !again.ok())
      return fail("lower-idempotent", x, "lower refuses its own output: " + again.message());
    if (!derive_contract(twice).same_promises(once))
      fail("lower-idempotent", x, "contract(lower(lower(x))) differs from contract(lower(x))");
  }

  // Unknown is never "none" (issue 22): state passed directly, in a list or in a kwargs dict to
  // an op outside the schema table (or a higher-order op pt2lint does not model), at top level
  // or inside the subgraph of a known higher-order op that the state is bound to (nested calls
  // included), is in the contract's writes or possible writes. Decided here from the graph and
  // the subgraph bindings alone, not by src/analysis/dataflow/op_effects.cc, so that the two
  // can disagree.
  void unknown_op_state_possibly_written(const ir::Program& x, const ProgramContract& contract) {
    std::set<std::string> reported;
    for (const WritePromise& w : contract.writes) reported.insert(w.target);
    for (const PossibleWritePromise& p : contract.possible_writes) reported.insert(p.target);
    const ir::GraphModule& module = x.program().graph_module();
    std::set<std::string_view> placeholders;
    for (const ir::Argument& input : module.graph().inputs())
      if (input.has_as_tensor()) placeholders.insert(input.as_tensor().name());
    std::map<std::string_view, std::string> state_of;  // value of the scope -> state target
    for (const ir::InputSpec& spec : module.signature().input_specs()) {
      const StateKind kind = state_kind_of(spec);
      if (!placeholders.count(input_spec_arg_name(spec))) continue;
      if (kind == StateKind::kUserInput) state_of.emplace(input_spec_arg_name(spec), std::string(input_spec_arg_name(spec)));
      else if (kind == StateKind::kBuffer || kind == StateKind::kParameter || kind == StateKind::kTensorConstant)
        state_of.emplace(input_spec_arg_name(spec), std::string(input_spec_target(spec)));
    }
    const bool functional = dialect_of(x.program()) == Dialect::kAten;
    unknown_ops_in_scope(x, module.graph(), state_of, reported, functional, 0, "");
  }

  void unknown_ops_in_scope(const ir::Program& x, const ir::Graph& graph,
                            const std::map<std::string_view, std::string>& state_of,
                            const std::set<std::string>& reported, bool functional, int depth,
                            const std::string& where) {
    constexpr int kMaxScopeDepth = 16;
    if (state_of.empty() || depth > kMaxScopeDepth) return;
    for (const ir::Node& node : graph.nodes()) {
      if (outside_schema_table(node.target(), functional)) {
        for (const std::string_view value : tensors_passed(node)) {
          auto state = state_of.find(value);
          if (state == state_of.end() || reported.count(state->second)) continue;
          fail("unknown-op-state-possibly-written", x,
               fmt::format("`{}` ({}) is passed to `{}`{}, whose effects pt2lint does not know, yet it is neither "
                           "in the contract's writes nor in its possible writes",
                           value, state->second, node.target(), where));
        }
        continue;
      }
      const dataflow::SubgraphCall call = dataflow::bind_subgraph_call(node);
      if (!call.known) continue;
      const std::string here = fmt::format("{} in subgraph of `{}`", where, fx_node_name(node));
      for (const dataflow::SubgraphBinding& sub : call.subgraphs) {
        if (sub.bound) {
          std::map<std::string_view, std::string> inner;
          for (int i = 0; i < sub.graph->inputs_size(); ++i) {
            auto state = state_of.find(sub.inputs[static_cast<std::size_t>(i)]);
            if (state != state_of.end()) inner.emplace(argument_value_name(sub.graph->inputs(i)), state->second);
          }
          unknown_ops_in_scope(x, *sub.graph, inner, reported, functional, depth + 1, here);
          continue;
        }
        // Operands that do not fit the subgraph: each state passed may reach every input.
        std::set<std::string> passed;
        for (const std::string_view value : tensors_passed(node))
          if (auto state = state_of.find(value); state != state_of.end()) passed.insert(state->second);
        for (const std::string& target : passed) {
          std::map<std::string_view, std::string> inner;
          for (int i = 0; i < sub.graph->inputs_size(); ++i) inner.emplace(argument_value_name(sub.graph->inputs(i)), target);
          unknown_ops_in_scope(x, *sub.graph, inner, reported, functional, depth + 1, here);
        }
      }
    }
  }

  // The write-backs of `program` that are already right: target -> value, for each state
  // written back exactly once, by its own last update (the dataflow facts say so).
  static std::map<std::string, std::string> right_write_backs(const ir::Program& program) {
    std::map<std::string, std::string> right;
    const ProgramIndex index(program);
    if (!diagnosis::graph_is_sound(index)) return right;
    diagnosis::ProgramFacts facts(index);
    std::map<std::string, int> times;
    const auto& specs = program.program().graph_module().signature().output_specs();
    for (const ir::OutputSpec& spec : specs)
      if (is_mutation_output(spec)) ++times[std::string(output_spec_target(spec))];
    for (const ir::OutputSpec& spec : specs) {
      if (!is_mutation_output(spec)) continue;
      const std::string target(output_spec_target(spec)), value(output_spec_arg_name(spec));
      const StateKind kind = mutation_state_kind(spec);
      const std::optional<int> input = index.input_spec_by_target(kind, target);
      if (times[target] != 1 || !input) continue;
      std::optional<ValueDef> def = index.definition(input_spec_arg_name(index.signature().input_specs(*input)));
      if (!def || def->placeholder < 0) continue;
      const diagnosis::ValueFact& fact = facts.fact(value);
      if (fact.origin == diagnosis::Origin::kUpdate && fact.placeholder == def->placeholder &&
          facts.final_update(def->placeholder) == value)
        right[target] = value;
    }
    return right;
  }

  // What `pt2lint fix` would write (a repair that checks clean; unsafe edits included) keeps
  // every write-back that was already right: same state, same value (docs/fix.md).
  void fix_properties(const ir::Program& x) {
    ir::Program repaired = x;
    const diagnosis::ProgramRepair repair = diagnosis::repair_program(repaired, {true});
    if (!repair.refusal.empty() || repair.edits.empty()) return;
    if (check(repaired, registry_).first_error() != nullptr) return;  // fix refuses to write it
    ++repairs_checked_;
    std::map<std::string, std::string> after;
    std::map<std::string, int> times;
    for (const ir::OutputSpec& spec : repaired.program().graph_module().signature().output_specs()) {
      if (!is_mutation_output(spec)) continue;
      after[std::string(output_spec_target(spec))] = std::string(output_spec_arg_name(spec));
      ++times[std::string(output_spec_target(spec))];
    }
    std::map<std::string, std::string> renamed;  // a followed rename keeps the write, under a new name
    for (const auto& [from, to] : repair.followed_renames) renamed[from] = to;
    for (const auto& [target, value] : right_write_backs(x)) {
      const std::string now = renamed.contains(target) ? renamed[target] : target;
      auto it = after.find(now);
      if (it == after.end() || it->second != value || times[now] != 1)
        fail("fix-keeps-right-writes", x, fmt::format(
            "the repair changes the write-back of `{}` (was `{}`, now {})", target, value,
            it == after.end() ? std::string("none") : fmt::format("`{}` x{}", it->second, times[now])));
    }
  }

  // Two write-backs of same-shape state, each the update of its own target: exchanging the
  // targets is exactly the bug PT301 exists for.
  void swap_is_reported(const ir::Program& x, const ProgramContract& contract) {
    const auto& writes = contract.writes;
    for (std::size_t i = 0; i < writes.size(); ++i) {
      for (std::size_t j = i + 1; j < writes.size(); ++j) {
        const WritePromise &a = writes[i], &b = writes[j];
        if (a.output_spec < 0 || b.output_spec < 0 || a.kind != b.kind || a.target == b.target) continue;
        if (a.base != a.target || b.base != b.target || !(a.state == b.state)) continue;
        ir::Program swapped = x;
        auto& specs = *swapped.mutable_program()->mutable_graph_module()->mutable_signature()->mutable_output_specs();
        std::string* ta = mutation_target(specs[a.output_spec]);
        std::string* tb = mutation_target(specs[b.output_spec]);
        if (ta == nullptr || tb == nullptr) continue;
        std::swap(*ta, *tb);
        if (check(swapped, registry_).first_error() == nullptr)
          fail("swap-detected", x, fmt::format("check finds no error after swapping the targets `{}` and `{}` of "
                                               "output_specs[{}] and [{}]", a.target, b.target, a.output_spec,
                                               b.output_spec));
        return;  // one pair per program keeps a run cheap
      }
    }
  }

  const RuleRegistry& registry_;
  std::vector<std::string>& violations_;
  int& repairs_checked_;
};

}  // namespace

PipelineResult run_pipeline(const std::vector<ir::Program>& programs, const RuleRegistry& registry,
                            const PipelineOptions& options) {
  PipelineResult result;
  PropertyRun run(registry, result.violations, result.repairs_checked);
  FileResult file;
  file.path = "input.textproto";
  for (const ir::Program& program : programs) {
    Checked checked = run.run(program);
    file.programs.push_back(std::move(checked.summary));
    for (Finding& f : checked.findings) {
      result.findings.push_back(f);
      file.findings.push_back(std::move(f));
    }
  }
  if (options.render_reports) {
    for (std::string& problem : check_every_report(file, registry))
      result.violations.push_back("reports-valid: " + problem);
  }
  return result;
}

namespace {

// The signature of a program as fix-restores-the-seed compares it: the input specs in order;
// each output spec with the graph output beside it, as a sorted list, because a mutant may have
// moved a spec together with its value, a consistent reordering no repair can see (PyTorch pairs
// write-backs by target and gradients by name); and, in order, the values callers receive, which
// a repair must never reorder.
struct SignatureView {
  std::vector<std::string> inputs, output_pairs, user_values;
  bool operator==(const SignatureView&) const = default;
};

SignatureView signature_view_of(const ir::Program& program, const std::map<std::string, std::string>& renamed) {
  SignatureView view;
  const ir::GraphModule& gm = program.program().graph_module();
  for (const ir::InputSpec& spec : gm.signature().input_specs()) view.inputs.push_back(spec.SerializeAsString());
  for (int i = 0; i < gm.signature().output_specs_size(); ++i) {
    ir::OutputSpec spec = gm.signature().output_specs(i);
    if (std::string* target = mutation_target(spec); target != nullptr)
      if (auto it = renamed.find(*target); it != renamed.end()) *target = it->second;
    const std::string value = i < gm.graph().outputs_size() ? gm.graph().outputs(i).SerializeAsString() : "";
    view.output_pairs.push_back(spec.SerializeAsString() + " " + value);
    if (spec.has_user_output()) view.user_values.push_back(value);
  }
  std::sort(view.output_pairs.begin(), view.output_pairs.end());
  return view;
}

// The values `of` gives callers, in their order among `program`'s graph outputs (a value also
// returned as a write-back appears there more often than callers receive it).
std::vector<std::string> user_values_in_graph_order(const ir::Program& program, const SignatureView& of) {
  std::vector<std::string> remaining = of.user_values, values;
  for (const ir::Argument& out : program.program().graph_module().graph().outputs()) {
    auto it = std::find(remaining.begin(), remaining.end(), out.SerializeAsString());
    if (it == remaining.end()) continue;
    values.push_back(std::move(*it));
    remaining.erase(it);
  }
  return values;
}

}  // namespace

std::vector<std::string> check_repair_restores_seed(const ir::Program& seed, const ir::Program& mutant,
                                                    const RuleRegistry& registry, int& repairs_checked) {
  ir::Program repaired = mutant;
  const diagnosis::ProgramRepair repair = diagnosis::repair_program(repaired, {true});
  if (!repair.refusal.empty() || repair.edits.empty()) return {};
  if (check(repaired, registry).first_error() != nullptr) return {};  // fix refuses to write it
  ++repairs_checked;
  std::map<std::string, std::string> back;  // the name now -> the seed's, for followed renames
  for (const auto& [from, to] : repair.followed_renames) back[to] = from;
  SignatureView want = signature_view_of(seed, {});
  const SignatureView got = signature_view_of(repaired, back);
  // What callers receive stays in the order the mutant's graph gives it: a move of a user
  // output together with its value is the mutant's calling convention, not a defect.
  want.user_values = user_values_in_graph_order(mutant, got);
  if (want == got) return {};
  std::string edits;
  for (const SignatureEdit& edit : repair.edits)
    edits += (edits.empty() ? "" : "; ") + describe_edit(edit) + (edit.proof.safe() ? " [safe]" : " [unsafe]");
  return {fmt::format("fix-restores-the-seed: program `{}`: the repair ({}) does not give back the clean "
                      "program's signature", mutant.name(), edits)};
}

std::string violation_property(const std::string& violation) {
  return violation.substr(0, violation.find(": "));
}

}  // namespace pt2lint::properties
