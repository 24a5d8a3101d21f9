// PT201 input-specs-match-placeholders: input spec i describes graph input i, by name.
// docs/rules/input-specs-match-placeholders.md
#include <fmt/format.h>

#include <unordered_map>

#include "analysis/program_index.h"
#include "analysis/state/name_suggestions.h"
#include "core/rule.h"
#include "core/rule_catalogue.h"
#include "rules/common/signature_helpers.h"

namespace pt2lint {
namespace {

class InputSpecsMatchPlaceholders final : public Rule {
 public:
  const RuleInfo& info() const override { return kInputSpecsMatchPlaceholders; }
  void check(const ProgramIndex& index, DiagnosticSink& sink) const override;
};

// The placeholder an input spec claims, or "" when torch does not name-check it: constant
// inputs have no placeholder name of their own (the deserializer names it after the spec).
std::string_view named_placeholder(const ir::InputSpec& spec) {
  if (spec.has_constant_input()) return "";
  return input_spec_arg_name(spec);
}

constexpr std::string_view kLoadRejects =
    "torch.export.load rejects this file: its verifier pairs input specs with placeholders by "
    "position (\"Number of graph inputs ... does not match number of inputs in the graph "
    "signature\" / \"Input spec name ... does not match node name ...\")";

}  // namespace

void InputSpecsMatchPlaceholders::check(const ProgramIndex& index, DiagnosticSink& sink) const {
  const std::vector<std::string_view>& placeholders = index.placeholder_names();
  const auto& specs = index.signature().input_specs();

  // Fast path, the well-formed program: spec i names placeholder i (or neither names one) for
  // every i. Then no spec or placeholder is orphaned, the order agrees and the counts match,
  // so the full comparison below would report nothing.
  if (static_cast<int>(placeholders.size()) == specs.size()) {
    bool aligned = true;
    for (int i = 0; aligned && i < specs.size(); ++i)
      aligned = named_placeholder(specs[i]) == placeholders[i];
    if (aligned) return;
  }

  std::unordered_map<std::string_view, int> placeholder_position, spec_position;
  for (int i = 0; i < static_cast<int>(placeholders.size()); ++i)
    if (!placeholders[i].empty()) placeholder_position.try_emplace(placeholders[i], i);
  for (int i = 0; i < specs.size(); ++i) {
    std::string_view name = named_placeholder(specs[i]);
    if (!name.empty()) spec_position.try_emplace(name, i);
  }

  std::vector<int> orphan_specs;
  for (int i = 0; i < specs.size(); ++i) {
    std::string_view name = named_placeholder(specs[i]);
    if (!name.empty() && !placeholder_position.count(name)) orphan_specs.push_back(i);
  }
  std::vector<int> orphan_placeholders;
  std::vector<NameCandidate> orphan_names;
  for (int i = 0; i < static_cast<int>(placeholders.size()); ++i) {
    if (!placeholders[i].empty() && !spec_position.count(placeholders[i])) {
      orphan_placeholders.push_back(i);
      orphan_names.push_back({placeholders[i], {}});
    }
  }

  for (int i : orphan_specs) {
    std::string_view name = named_placeholder(specs[i]);
    InFlightFinding finding = emit(
        sink, kInputSpecsMatchPlaceholders, index.name(),
        fmt::format("input_specs[{}] ({}) names placeholder `{}`, but the graph has no input "
                    "of that name",
                    i, describe_input_role(specs[i]), name));
    finding.at_input_spec(i).at_value(std::string(name)).note(std::string(kLoadRejects));
    std::optional<NearMiss> near = find_near_miss(name, orphan_names);
    // Positional evidence beats spelling: the spec still sits where its placeholder is.
    bool same_position_orphan = i < static_cast<int>(placeholders.size()) &&
                                !placeholders[i].empty() && !spec_position.count(placeholders[i]);
    if (same_position_orphan) {
      finding
          .note(fmt::format("did you mean `{}`? it is graph input {}, at this spec's position, "
                            "and has no spec of its own",
                            placeholders[i], i))
          .fix(fmt::format("rename the spec's arg from `{}` to `{}`", name, placeholders[i]));
    } else if (near) {
      finding.note(fmt::format("did you mean `{}`? {}", near->name, near->explanation))
          .fix(fmt::format("rename the spec's arg from `{}` to `{}`", name, near->name));
    } else {
      finding.fix("point the spec at the placeholder it describes, or remove the spec");
    }
  }

  for (int position : orphan_placeholders) {
    std::string_view name = placeholders[position];
    InFlightFinding finding =
        emit(sink, kInputSpecsMatchPlaceholders, index.name(),
             fmt::format("graph input {} `{}` has no input spec", position, name));
    finding.at_value(std::string(name)).note(std::string(kLoadRejects));
    std::string_view kind = state_kind_name(kind_from_placeholder_prefix(name));
    if (!kind.empty()) {
      finding.note(fmt::format("torch.export names a lifted {} like `{}`: that {}'s input "
                               "spec was probably dropped",
                               kind, name, kind));
    }
    finding.fix(fmt::format("insert an input spec whose arg is `{}` at input_specs[{}]{}", name,
                            position, kind.empty() ? "" : fmt::format(" (kind {})", kind)));
  }

  bool reported = !orphan_specs.empty() || !orphan_placeholders.empty();
  if (!reported) {
    // Same names on both sides: any difference left is order.
    int common = std::min(static_cast<int>(placeholders.size()), specs.size());
    for (int i = 0; i < common; ++i) {
      std::string_view name = named_placeholder(specs[i]);
      if (name.empty() || placeholders[i].empty() || name == placeholders[i]) continue;
      reported = true;
      emit(sink, kInputSpecsMatchPlaceholders, index.name(),
           fmt::format("input_specs[{}] ({}) names `{}`, but graph input {} is `{}`", i,
                       describe_input_role(specs[i]), name, i, placeholders[i]))
          .at_input_spec(i)
          .at_value(std::string(placeholders[i]))
          .note(fmt::format("`{}` is graph input {}: the specs are in a different order than the "
                            "placeholders",
                            name, placeholder_position.at(name)))
          .note(std::string(kLoadRejects))
          .fix("reorder input_specs to follow the order of graph.inputs");
    }
  }
  if (!reported && static_cast<int>(placeholders.size()) != specs.size()) {
    emit(sink, kInputSpecsMatchPlaceholders, index.name(),
         fmt::format("the graph has {} inputs but the signature has {} input specs",
                     placeholders.size(), specs.size()))
        .at_input_spec(std::min(static_cast<int>(placeholders.size()), specs.size()))
        .note("two specs name the same placeholder, or a constant input has no spec")
        .note(std::string(kLoadRejects))
        .fix("keep exactly one input spec per graph input, in graph input order");
  }
}

std::unique_ptr<Rule> make_InputSpecsMatchPlaceholders() { return std::make_unique<InputSpecsMatchPlaceholders>(); }

}  // namespace pt2lint
