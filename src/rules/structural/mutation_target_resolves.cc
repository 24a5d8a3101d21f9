// PT204 mutation-target-resolves: every mutation output names state of the matching kind.
// docs/rules/mutation-target-resolves.md
#include <fmt/format.h>

#include <algorithm>

#include "analysis/program_index.h"
#include "analysis/state/name_suggestions.h"
#include "core/rule.h"
#include "core/rule_catalogue.h"
#include "rules/common/signature_helpers.h"
#include "rules/common/value_ancestry.h"

namespace pt2lint {
namespace {

class MutationTargetResolves final : public Rule {
 public:
  const RuleInfo& info() const override { return kMutationTargetResolves; }
  void check(const ProgramIndex& index, DiagnosticSink& sink) const override;
};

// What one mutation kind must point at.
struct TargetKind {
  StateKind state_kind;         // the input spec kind it writes
  std::string_view torch_says;  // torch.export.load's message
};

constexpr TargetKind kBufferTarget{StateKind::kBuffer,
                                   "Buffer output ... does not point to a buffer that exists"};
constexpr TargetKind kParameterTarget{
    StateKind::kParameter,
    "Parameter output ... does not point to a parameter that exists"};
constexpr TargetKind kUserInputTarget{
    StateKind::kUserInput,
    "User input output ... does not point to a user input that exists"};

const TargetKind* target_kind(const ir::OutputSpec& spec) {
  if (spec.has_buffer_mutation()) return &kBufferTarget;
  if (spec.has_parameter_mutation()) return &kParameterTarget;
  if (spec.has_user_input_mutation()) return &kUserInputTarget;
  return nullptr;
}

// Names a target of `kind` may take: FQNs for state, placeholder names for user inputs.
std::vector<NameCandidate> candidates_for(const ir::GraphSignature& signature,
                                          StateKind kind) {
  std::vector<NameCandidate> candidates;
  if (kind == StateKind::kUserInput) {
    for (std::string_view name : user_input_names(signature)) candidates.push_back({name, name});
    return candidates;
  }
  for (const DeclaredState& state : declared_state(signature, kind))
    candidates.push_back({state.fqn, state.placeholder});
  return candidates;
}

// Targets that some mutation spec other than `except` writes, by kind.
bool written_elsewhere(const ir::GraphSignature& signature, std::string_view target,
                       int except) {
  for (int i = 0; i < signature.output_specs_size(); ++i) {
    if (i != except && is_mutation_output(signature.output_specs(i)) &&
        output_spec_target(signature.output_specs(i)) == target)
      return true;
  }
  return false;
}

// The single state of `kind` the mutation value is computed from and nothing else writes.
std::optional<DeclaredState> unwritten_source(const ProgramIndex& index, int spec_index,
                                              StateKind kind) {
  const ir::GraphSignature& signature = index.signature();
  std::string_view value = output_spec_arg_name(signature.output_specs(spec_index));
  std::optional<DeclaredState> found;
  for (int source : source_input_specs(index, value)) {
    const ir::InputSpec& spec = signature.input_specs(source);
    if (state_kind_of(spec) != kind) continue;
    std::string_view name = kind == StateKind::kUserInput ? input_spec_arg_name(spec)
                                                 : input_spec_target(spec);
    if (name.empty() || written_elsewhere(signature, name, spec_index)) continue;
    if (found) return std::nullopt;  // ambiguous
    found = DeclaredState{source, kind, name, input_spec_arg_name(spec)};
  }
  return found;
}

// Explains a target that names state of another kind (a parameter where a buffer was meant).
bool explain_wrong_kind(const ProgramIndex& index, const TargetKind& wanted,
                        std::string_view target, InFlightFinding& finding) {
  for (const DeclaredState& state : declared_state(index.signature())) {
    if (state.fqn != target || state.kind == wanted.state_kind) continue;
    const StateKind placeholder_kind = kind_from_placeholder_prefix(state.placeholder);
    if (placeholder_kind == wanted.state_kind) {
      // The target is right; its input spec was rewritten to another kind.
      finding
          .note(fmt::format("input_specs[{}] declares `{}` as a {}, but its placeholder `{}` is "
                            "named like a {}: the {}'s input spec was probably rewritten as a {}",
                            state.spec_index, target, state_kind_name(state.kind), state.placeholder,
                            state_kind_name(wanted.state_kind), state_kind_name(wanted.state_kind),
                            state_kind_name(state.kind)))
          .fix(fmt::format("declare input_specs[{}] as a {} again", state.spec_index,
                           state_kind_name(wanted.state_kind)),
               wanted.state_kind == StateKind::kBuffer
                   ? fmt::format("{{\"buffer\": {{\"arg\": {{\"name\": \"{}\"}}, \"buffer_name\": "
                                 "\"{}\", \"persistent\": true}}}}",
                                 state.placeholder, target)
                   : std::string());
      return true;
    }
    std::string consequence =
        state.kind == StateKind::kParameter ? "a parameter update needs a parameter_mutation spec"
        : state.kind == StateKind::kBuffer  ? "a buffer update needs a buffer_mutation spec"
                                            : fmt::format("a {} is not mutable state; state that is written "
                                                          "must be registered as a buffer",
                                                          state_kind_name(state.kind));
    finding.note(fmt::format("`{}` is a {} (input_specs[{}]), not a {}; {}", target,
                             state_kind_name(state.kind), state.spec_index,
                             state_kind_name(wanted.state_kind), consequence));
    return false;  // still worth a "did you mean" for the intended target
  }
  return false;
}

// A target that is right but whose input spec is gone: a graph input still carries the name
// torch.export would give it (`b_` + sanitised FQN) and has no input spec.
bool explain_dropped_spec(const ProgramIndex& index, const TargetKind& wanted,
                          std::string_view target, InFlightFinding& finding) {
  if (wanted.state_kind == StateKind::kUserInput || target.empty()) return false;
  std::string expected = fmt::format("{}_{}", wanted.state_kind == StateKind::kBuffer ? "b" : "p",
                                     sanitize_state_name(target));
  const std::vector<std::string_view>& placeholders = index.placeholder_names();
  for (int i = 0; i < static_cast<int>(placeholders.size()); ++i) {
    if (placeholders[i] != expected || index.input_spec_index(placeholders[i])) continue;
    finding
        .note(fmt::format("graph input {} `{}` is named like the {} `{}` but has no input spec: "
                          "the {}'s input spec was probably dropped",
                          i, expected, state_kind_words(wanted.state_kind), target, state_kind_words(wanted.state_kind)))
        .fix(fmt::format("restore the {} input spec for `{}` (placeholder `{}`) at input_specs[{}]",
                         state_kind_words(wanted.state_kind), target, expected, i));
    return true;
  }
  return false;
}

void check_spec(const ProgramIndex& index, int i, const TargetKind& kind, DiagnosticSink& sink,
                const RuleInfo& info) {
  const ir::OutputSpec& spec = index.signature().output_specs(i);
  std::string_view target = output_spec_target(spec);
  std::vector<NameCandidate> candidates = candidates_for(index.signature(), kind.state_kind);
  bool resolves = std::any_of(candidates.begin(), candidates.end(),
                              [&](const NameCandidate& c) { return c.name == target; });
  if (resolves) return;

  std::string shown = target.empty() ? std::string("no target") : quoted(target);
  InFlightFinding finding =
      emit(sink, info, index.name(),
           fmt::format("output_specs[{}] is a {} of {}, but no {} has that name", i,
                       mutation_spec_kind(kind.state_kind), shown, state_kind_words(kind.state_kind)));
  finding.at_output_spec(i).at_value(std::string(output_spec_arg_name(spec)));
  finding.state(std::string(target));

  bool explained = explain_wrong_kind(index, kind, target, finding) ||
                   explain_dropped_spec(index, kind, target, finding);
  if (!explained) {
    std::optional<NearMiss> near = find_near_miss(target, candidates);
    std::optional<DeclaredState> source = unwritten_source(index, i, kind.state_kind);
    if (near) {
      finding.note(fmt::format("did you mean `{}`? {}", near->name, near->explanation))
          .fix(fmt::format("set the target to `{}`", near->name));
    } else if (source) {
      finding
          .note(fmt::format("did you mean `{}`? the value `{}` is computed from its placeholder "
                            "`{}`, and no other output writes it back",
                            source->fqn, output_spec_arg_name(spec), source->placeholder))
          .fix(fmt::format("set the target to `{}`", source->fqn));
    } else {
      std::vector<std::string_view> names;
      for (const NameCandidate& c : candidates) names.push_back(c.name);
      if (!names.empty())
        finding.note(fmt::format("the program's {}s: {}", state_kind_words(kind.state_kind), join_quoted(names)));
      finding.fix(fmt::format("set the target to the {} this value updates", state_kind_words(kind.state_kind)));
    }
  }
  finding.note(fmt::format("torch.export.load rejects this file (\"{}\"); and unlifting could not "
                           "find where to write the new value back",
                           kind.torch_says));
}

}  // namespace

void MutationTargetResolves::check(const ProgramIndex& index, DiagnosticSink& sink) const {
  const auto& specs = index.signature().output_specs();
  for (int i = 0; i < specs.size(); ++i) {
    if (const TargetKind* kind = target_kind(specs[i])) check_spec(index, i, *kind, sink, kMutationTargetResolves);
  }
}

std::unique_ptr<Rule> make_MutationTargetResolves() { return std::make_unique<MutationTargetResolves>(); }

}  // namespace pt2lint
