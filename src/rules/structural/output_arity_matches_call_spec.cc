// PT210 output-arity-matches-call-spec: user outputs match the root out_spec's leaves.
// docs/rules/output-arity-matches-call-spec.md
#include <fmt/format.h>

#include "analysis/program_index.h"
#include "core/ir/treespec.h"
#include "core/rule.h"
#include "core/rule_catalogue.h"
#include "rules/common/signature_helpers.h"

namespace pt2lint {
namespace {

class OutputArityMatchesCallSpec final : public Rule {
 public:
  const RuleInfo& info() const override { return kOutputArityMatchesCallSpec; }
  void check(const ProgramIndex& index, DiagnosticSink& sink) const override;
};

std::string describe_shape(const TreeSpecShape& shape) {
  if (shape.root_type.empty()) return "a single leaf";
  return fmt::format("a {} of {}", shape.root_type,
                     count_of(shape.root_children, "element", "elements"));
}

}  // namespace

void OutputArityMatchesCallSpec::check(const ProgramIndex& index, DiagnosticSink& sink) const {
  const auto& call_graph = index.exported().graph_module().module_call_graph();
  int root = -1;
  for (int i = 0; i < call_graph.size(); ++i) {
    if (call_graph[i].fqn().empty()) {
      root = i;
      break;
    }
  }
  // No root entry or no signature: nothing states the calling convention to compare with.
  if (root < 0 || !call_graph[root].has_signature()) return;
  const std::string& out_spec = call_graph[root].signature().out_spec();
  if (out_spec.empty()) return;
  std::string path = fmt::format("graph_module.module_call_graph[{}].signature.out_spec", root);

  TreeSpecShape shape = read_treespec(out_spec);
  if (shape.too_deep || (shape.ok && shape.nesting > kTorchMaxTreeSpecNesting)) {
    // Between the measured limit and the recursion limit, loading depends on the caller's
    // stack: a warning. Past the recursion limit it always fails: an error.
    const bool always_refused = !shape.ok || shape.nesting >= kTorchRefusedTreeSpecNesting;
    emit(sink, kOutputArityMatchesCallSpec, index.name(),
         shape.ok ? fmt::format("the root module call signature's out_spec nests its outputs {} "
                                "containers deep; torch.export.load refuses out_specs nested "
                                "deeper than {}",
                                shape.nesting, kTorchMaxTreeSpecNesting)
                  : fmt::format("the root module call signature's out_spec nests its outputs "
                                "more than {} containers deep; torch.export.load refuses "
                                "out_specs nested deeper than {}",
                                kMaxTreeSpecDepth - 1, kTorchMaxTreeSpecNesting))
        .at_json_path(path)
        .note("measured with PyTorch 2.11: an out_spec nested 984 deep loads and runs, 985 and "
              "deeper fail to deserialize (\"We ran into an error when deserializing the saved "
              "file\"): treespec_loads recurses once per level under Python's recursion limit "
              "of 1000, on top of the caller's frames, so a nesting between 985 and 999 loads "
              "or not depending on how deep the stack that calls torch.export.load is")
        .severity(always_refused ? Severity::kError : Severity::kWarning)
        .fix("return a flatter structure from forward (a tuple or dict of tensors), and export "
             "again");
    return;
  }
  if (!shape.ok) {
    emit(sink, kOutputArityMatchesCallSpec, index.name(),
         fmt::format("the root module call signature's out_spec cannot be read: {}", shape.error))
        .at_json_path(path)
        .note("torch.export.load rebuilds every treespec with treespec_loads while it "
              "deserializes the file (a too-deep out_spec fails there: measured with PyTorch "
              "2.11), so it refuses an out_spec that does not parse")
        .fix("write out_spec as torch.utils._pytree.treespec_dumps does: "
             "[1, {\"type\": ..., \"context\": ..., \"children_spec\": [...]}]");
    return;
  }

  // A joint program's one loss is a leaf; extra LOSS_OUTPUT specs are mislabelled outputs that
  // joint-one-scalar-loss reports, not a second root cause here.
  int user_outputs = 0;
  bool loss_seen = false;
  for (const ir::OutputSpec& spec : index.signature().output_specs()) {
    if (spec.has_loss_output() && loss_seen) continue;
    loss_seen = loss_seen || spec.has_loss_output();
    if (spec.has_user_output() || spec.has_loss_output()) ++user_outputs;
  }
  if (static_cast<std::size_t>(user_outputs) == shape.leaves) return;

  emit(sink, kOutputArityMatchesCallSpec, index.name(),
       fmt::format("the program has {}, but the root module call signature's out_spec ({}) "
                   "has {}",
                   count_of(user_outputs, "user output", "user outputs"), describe_shape(shape),
                   count_of(shape.leaves, "leaf", "leaves")))
      .at_json_path(path)
      .note("ExportedProgram.module() rebuilds the caller's return value by unflattening the user "
            "outputs with out_spec; with a different count, the call fails at run time inside "
            "pytree unflatten, long after the file loaded fine")
      .note("a user output relabelled as a mutation, or an output added by a pass without "
            "updating module_call_graph, both leave this mismatch")
      .fix(user_outputs > static_cast<int>(shape.leaves)
               ? "drop the extra user outputs (spec and graph output), or extend out_spec to "
                 "describe them"
               : "restore the missing user outputs, or shrink out_spec to the outputs returned");
}

std::unique_ptr<Rule> make_OutputArityMatchesCallSpec() { return std::make_unique<OutputArityMatchesCallSpec>(); }

}  // namespace pt2lint
