// PT202 output-specs-match-graph-outputs: output spec i describes graph output i.
// docs/rules/output-specs-match-graph-outputs.md
#include <fmt/format.h>

#include <algorithm>
#include <optional>
#include <unordered_map>

#include "analysis/program_index.h"
#include "core/rule.h"
#include "core/rule_catalogue.h"
#include "rules/common/signature_helpers.h"

namespace pt2lint {
namespace {

class OutputSpecsMatchGraphOutputs final : public Rule {
 public:
  const RuleInfo& info() const override { return kOutputSpecsMatchGraphOutputs; }
  void check(const ProgramIndex& index, DiagnosticSink& sink) const override;
};

// Names of graph outputs without a spec (or specs without a graph output), as a multiset
// difference: the same value may legally be returned twice (user_input_mutation + output).
// Counted in a hash map: linear however many outputs share a name.
std::vector<std::string_view> missing_from(const std::vector<std::string_view>& names,
                                           const std::vector<std::string_view>& others) {
  std::unordered_map<std::string_view, std::size_t> available;
  available.reserve(others.size());
  for (std::string_view other : others) ++available[other];
  std::vector<std::string_view> missing;
  for (std::string_view name : names) {
    if (name.empty()) continue;
    auto it = available.find(name);
    if (it == available.end() || it->second == 0) {
      missing.push_back(name);
    } else {
      --it->second;
    }
  }
  return missing;
}

// The k in 1..n-1 with spec_names[i] == output_names[(i + k) % n] for every i: the specs were
// rotated against the graph outputs (one moved from the front to the back, or the reverse).
// Knuth-Morris-Pratt search for spec_names in output_names twice over: linear, where trying
// each k costs n² on outputs that share a name (40,000 write-backs of one buffer).
std::optional<int> rotation(const std::vector<std::string_view>& spec_names,
                            const std::vector<std::string_view>& output_names) {
  const std::size_t n = output_names.size();
  if (n < 2 || spec_names.size() != n) return std::nullopt;
  std::vector<std::size_t> border(n, 0);  // KMP failure function of spec_names
  for (std::size_t i = 1, k = 0; i < n; ++i) {
    while (k > 0 && spec_names[i] != spec_names[k]) k = border[k - 1];
    if (spec_names[i] == spec_names[k]) ++k;
    border[i] = k;
  }
  // Text: output_names[1..], wrapping, 2n-1 long; a match starting at text position j means
  // spec_names[i] == output_names[(i + j + 1) % n], i.e. rotation k = j + 1.
  for (std::size_t j = 0, k = 0; j + 1 < 2 * n; ++j) {
    const std::string_view c = output_names[(j + 1) % n];
    while (k > 0 && c != spec_names[k]) k = border[k - 1];
    if (c == spec_names[k]) ++k;
    if (k == n) {
      const std::size_t start = j + 1 - n;  // text index of the match's first element
      const std::size_t rotation_k = start + 1;
      if (rotation_k >= 1 && rotation_k < n) return static_cast<int>(rotation_k);
      k = border[k - 1];
    }
  }
  return std::nullopt;
}

std::string runtime_effect(const ir::OutputSpec& spec, std::string_view graph_value,
                           int position) {
  if (is_mutation_output(spec)) {
    return fmt::format("ExportedProgram.module() writes graph output {} (`{}`) back into `{}`, "
                       "so that state silently receives the wrong value",
                       position, graph_value, output_spec_target(spec));
  }
  return fmt::format("callers receive `{}` in place of the value this spec describes, and the "
                     "write-backs of mutated state are shifted the same way",
                     graph_value);
}

}  // namespace

void OutputSpecsMatchGraphOutputs::check(const ProgramIndex& index, DiagnosticSink& sink) const {
  const std::vector<std::string_view>& outputs = index.output_names();
  const auto& specs = index.signature().output_specs();
  std::vector<std::string_view> spec_names;
  for (const ir::OutputSpec& spec : specs) spec_names.push_back(output_spec_arg_name(spec));

  int n = static_cast<int>(outputs.size());
  int m = specs.size();
  if (n != m) {
    InFlightFinding finding = emit(
        sink, kOutputSpecsMatchGraphOutputs, index.name(),
        fmt::format("the graph returns {} values but the signature has {} output specs", n, m));
    finding.at_output_spec(std::min(n, m));
    std::vector<std::string_view> no_spec = missing_from(outputs, spec_names);
    std::vector<std::string_view> no_output = missing_from(spec_names, outputs);
    if (!no_spec.empty()) finding.note("graph outputs without a spec: " + join_quoted(no_spec));
    if (!no_output.empty())
      finding.note("specs without a graph output: " + join_quoted(no_output));
    finding
        .note("torch.export.load rejects this file (\"Number of output nodes ... is different "
              "Than the number of outputs specified by the graph signature\")")
        .fix("keep exactly one output spec per graph output, in graph output order");
  }

  std::optional<int> rotated = rotation(spec_names, outputs);
  for (int i = 0; i < std::min(n, m); ++i) {
    if (spec_names[i] == outputs[i]) continue;
    std::string graph_value = outputs[i].empty() ? "a constant" : quoted(outputs[i]);
    std::string spec_value = spec_names[i].empty() ? "a constant" : quoted(spec_names[i]);
    InFlightFinding finding =
        emit(sink, kOutputSpecsMatchGraphOutputs, index.name(),
             fmt::format("output_specs[{}] ({}) describes {}, but graph output {} is {}", i,
                         describe_output_role(specs[i]), spec_value, i, graph_value));
    finding.at_output_spec(i).at_value(std::string(outputs[i]));
    if (!output_spec_target(specs[i]).empty())
      finding.state(std::string(output_spec_target(specs[i])));
    finding.note(runtime_effect(specs[i], outputs[i], i));
    if (rotated) {
      finding
          .note(fmt::format("the output specs are the graph outputs rotated by {} (spec i "
                            "describes graph output i+{} mod {}): a spec was moved to the other "
                            "end of the list without its graph output",
                            *rotated, *rotated, n))
          .fix(fmt::format("move the last {} output spec(s) to the front of output_specs, so "
                           "spec i describes graph output i again",
                           *rotated));
    } else {
      finding.fix(fmt::format("make output_specs[{}] describe {}, or reorder graph.outputs to "
                              "match the specs",
                              i, graph_value));
    }
  }
}

std::unique_ptr<Rule> make_OutputSpecsMatchGraphOutputs() { return std::make_unique<OutputSpecsMatchGraphOutputs>(); }

}  // namespace pt2lint
