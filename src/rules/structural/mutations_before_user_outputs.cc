// PT203 mutations-before-user-outputs: outputs are laid out [tokens][mutations][user/loss outputs].
// docs/rules/mutations-before-user-outputs.md
#include <fmt/format.h>

#include <unordered_set>

#include "analysis/program_index.h"
#include "core/rule.h"
#include "core/rule_catalogue.h"
#include "rules/common/signature_helpers.h"

namespace pt2lint {
namespace {

class MutationsBeforeUserOutputs final : public Rule {
 public:
  const RuleInfo& info() const override { return kMutationsBeforeUserOutputs; }
  void check(const ProgramIndex& index, DiagnosticSink& sink) const override;
};

// The three tiers of the output layout torch's verifier slices by position.
enum class Tier { kToken = 0, kMutation = 1, kUserFacing = 2, kUnknown = 3 };

Tier tier_of(const ir::OutputSpec& spec) {
  if (spec.has_token()) return Tier::kToken;
  if (is_mutation_output(spec)) return Tier::kMutation;
  if (spec.kind_case() == ir::OutputSpec::KIND_NOT_SET) return Tier::kUnknown;
  return Tier::kUserFacing;  // user_output, loss_output, gradients
}

std::string_view tier_words(Tier tier) {
  switch (tier) {
    case Tier::kToken: return "token";
    case Tier::kMutation: return "mutation";
    case Tier::kUserFacing: return "user output";
    case Tier::kUnknown: return "output";
  }
  return "output";
}

// What torch's verifier names in its misleading message, or "" when it would not complain.
// It takes graph outputs [tokens, tokens + mutations) as the mutations and looks each up by
// name among the mutation specs; the first it cannot find is reported as
// "Mutation node X is neither a buffer nor a user input".
std::string_view torch_blamed_output(const ProgramIndex& index) {
  const auto& specs = index.signature().output_specs();
  const std::vector<std::string_view>& outputs = index.output_names();
  int tokens = 0, mutations = 0;
  std::unordered_set<std::string_view> mutation_values;
  for (const ir::OutputSpec& spec : specs) {
    if (spec.has_token()) ++tokens;
    if (is_mutation_output(spec)) {
      ++mutations;
      mutation_values.insert(output_spec_arg_name(spec));
    }
  }
  for (int i = tokens; i < tokens + mutations && i < static_cast<int>(outputs.size()); ++i) {
    if (!mutation_values.count(outputs[i])) return outputs[i];
  }
  return "";
}

}  // namespace

void MutationsBeforeUserOutputs::check(const ProgramIndex& index, DiagnosticSink& sink) const {
  const auto& specs = index.signature().output_specs();
  // first_of_tier[t]: the first spec index of tier t seen so far, -1 if none yet.
  int first_of_tier[3] = {-1, -1, -1};
  std::string_view blamed = torch_blamed_output(index);
  for (int i = 0; i < specs.size(); ++i) {
    Tier tier = tier_of(specs[i]);
    if (tier == Tier::kUnknown) continue;
    int t = static_cast<int>(tier);
    // The earliest spec of a later tier that this one follows.
    int ahead = -1;
    for (int later = t + 1; later < 3; ++later) {
      if (first_of_tier[later] >= 0 && (ahead < 0 || first_of_tier[later] < ahead))
        ahead = first_of_tier[later];
    }
    if (first_of_tier[t] < 0) first_of_tier[t] = i;
    if (ahead < 0) continue;

    Tier ahead_tier = tier_of(specs[ahead]);
    InFlightFinding finding = emit(
        sink, kMutationsBeforeUserOutputs, index.name(),
        fmt::format("output_specs[{}] is a {} but comes after {} output_specs[{}] ({})", i,
                    describe_output_spec(specs[i]), tier_words(ahead_tier), ahead,
                    describe_output_spec(specs[ahead])));
    finding.at_output_spec(i).at_value(std::string(output_spec_arg_name(specs[i])));
    if (!output_spec_target(specs[i]).empty())
      finding.state(std::string(output_spec_target(specs[i])));
    if (!blamed.empty()) {
      finding.note(fmt::format(
          "torch.export.load rejects this file with \"Mutation node {} is neither a buffer nor "
          "a user input\", which misleads: `{}` is a user output that the shifted layout puts "
          "where torch expects the mutations; the misplaced spec is output_specs[{}]",
          blamed, blamed, i));
    } else {
      finding.note(
          "ExportedProgram.module() and other consumers (ExecuTorch, AOTInductor) take the "
          "leading outputs as [tokens][mutations] by position, so state updates and user "
          "outputs get mixed up");
    }
    finding.fix(fmt::format("move output_specs[{}] and graph output {} together to position {}, "
                            "before the first {}",
                            i, i, ahead, tier_words(ahead_tier)));
  }
}

std::unique_ptr<Rule> make_MutationsBeforeUserOutputs() { return std::make_unique<MutationsBeforeUserOutputs>(); }

}  // namespace pt2lint
