// PT205 one-mutation-per-buffer: at most one mutation output per buffer, parameter or user input.
// docs/rules/one-mutation-per-buffer.md
#include <fmt/format.h>

#include <unordered_map>
#include <unordered_set>

#include "analysis/program_index.h"
#include "analysis/state/state_storage.h"
#include "core/rule.h"
#include "core/rule_catalogue.h"
#include "rules/common/signature_helpers.h"
#include "rules/common/value_ancestry.h"

namespace pt2lint {
namespace {

class OneMutationPerBuffer final : public Rule {
 public:
  const RuleInfo& info() const override { return kOneMutationPerBuffer; }
  void check(const ProgramIndex& index, DiagnosticSink& sink) const override;
};

// The input a mutation target names: FQN for state, placeholder name for user inputs.
std::string_view input_target(const ir::InputSpec& spec) {
  return spec.has_user_input() ? input_spec_arg_name(spec) : input_spec_target(spec);
}

// State the duplicate's value is computed from that no mutation output writes: the write-back
// the duplicate most likely replaced.
std::vector<std::string_view> orphaned_sources(const ProgramIndex& index, std::string_view value,
                                               StateKind kind,
                                               const std::unordered_set<std::string_view>& written) {
  std::vector<std::string_view> sources;
  for (int source : source_input_specs(index, value)) {
    const ir::InputSpec& spec = index.signature().input_specs(source);
    if (state_kind_of(spec) != kind) continue;
    std::string_view target = input_target(spec);
    if (!target.empty() && !written.count(target)) sources.push_back(target);
  }
  return sources;
}

// Two mutation outputs that write different names of one storage (tied weights, one tensor
// registered twice) with different values: the storage ends up holding whichever is copied
// last. Writing the same value under each name is consistent and left to aliased-state-written.
void check_aliased_targets(const ProgramIndex& index, DiagnosticSink& sink, const RuleInfo& info) {
  const StateStorage& storage = index.storage();
  if (!storage.has_aliases()) return;
  const auto& specs = index.signature().output_specs();
  std::unordered_map<std::string_view, int> first_writer;  // canonical name -> output spec
  for (int i = 0; i < specs.size(); ++i) {
    if (!is_mutation_output(specs[i]) || specs[i].has_user_input_mutation()) continue;
    std::string_view target = output_spec_target(specs[i]);
    if (target.empty() || !storage.aliased(target)) continue;
    auto [it, first] = first_writer.try_emplace(storage.canonical(target), i);
    if (first) continue;
    const ir::OutputSpec& earlier = specs[it->second];
    std::string_view earlier_target = output_spec_target(earlier);
    if (earlier_target == target) continue;  // the plain duplicate, reported above
    if (output_spec_arg_name(earlier) == output_spec_arg_name(specs[i])) continue;
    emit(sink, info, index.name(),
         fmt::format("output_specs[{}] ({}) and output_specs[{}] ({}) write different values to "
                     "one storage: `{}` and `{}` are two names of one tensor ({})",
                     it->second, describe_output_spec(earlier), i, describe_output_spec(specs[i]),
                     earlier_target, target, storage.why_shared(target)))
        .at_output_spec(i)
        .at_value(std::string(output_spec_arg_name(specs[i])))
        .state(std::string(target))
        .note("ExportedProgram.module() copies each mutation output into its target in output "
              "order, so the tensor keeps only the value copied last and the other write is "
              "silently dropped")
        .fix(fmt::format("write the storage once: keep one mutation output for `{}` and `{}`, "
                         "or untie them (register separate tensors) before export",
                         earlier_target, target));
  }
}

}  // namespace

void OneMutationPerBuffer::check(const ProgramIndex& index, DiagnosticSink& sink) const {
  const auto& specs = index.signature().output_specs();
  std::unordered_map<std::string_view, int> first_writer;
  std::unordered_set<std::string_view> written;
  for (const ir::OutputSpec& spec : specs)
    if (is_mutation_output(spec)) written.insert(output_spec_target(spec));

  for (int i = 0; i < specs.size(); ++i) {
    if (!is_mutation_output(specs[i])) continue;
    std::string_view target = output_spec_target(specs[i]);
    if (target.empty()) continue;  // mutation-target-resolves reports a missing target
    auto [it, first] = first_writer.try_emplace(target, i);
    if (first) continue;
    int earlier = it->second;
    std::string_view value = output_spec_arg_name(specs[i]);
    InFlightFinding finding = emit(
        sink, kOneMutationPerBuffer, index.name(),
        fmt::format("output_specs[{}] ({}) writes `{}` again: output_specs[{}] ({}) already "
                    "writes it",
                    i, describe_output_spec(specs[i]), target, earlier,
                    describe_output_spec(specs[earlier])));
    finding.at_output_spec(i).at_value(std::string(value)).state(std::string(target));
    finding.note(
        "ExportedProgram.module() copies each mutation output into its target in output order, "
        "so only the last write survives and the other value is silently dropped; torch's "
        "verifier counts mutations by output name and may not notice");
    std::vector<std::string_view> orphans =
        orphaned_sources(index, value, mutation_state_kind(specs[i]), written);
    if (orphans.size() == 1) {
      finding
          .note(fmt::format("did you mean `{}`? the value `{}` is computed from it, and no "
                            "output writes it back",
                            orphans.front(), value))
          .fix(fmt::format("point output_specs[{}] at `{}`", i, orphans.front()));
    } else {
      finding.fix(fmt::format("keep one mutation output for `{}`; turn output_specs[{}] back into "
                              "what it was (a user output, or the write-back of other state)",
                              target, i));
    }
  }
  check_aliased_targets(index, sink, kOneMutationPerBuffer);
}

std::unique_ptr<Rule> make_OneMutationPerBuffer() { return std::make_unique<OneMutationPerBuffer>(); }

}  // namespace pt2lint
