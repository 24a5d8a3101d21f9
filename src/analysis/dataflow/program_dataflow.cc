#include "analysis/dataflow/program_dataflow.h"

#include <fmt/format.h>

#include "analysis/program_index.h"

namespace pt2lint::dataflow {

ProgramDataflow::ProgramDataflow(const ProgramIndex& index)
    : index_(index), ops_(index), tracer_(index, ops_) {}

PlaceholderState ProgramDataflow::state(int placeholder) const {
  PlaceholderState out;
  if (placeholder < 0 || placeholder >= static_cast<int>(index_.placeholder_names().size()))
    return out;
  out.placeholder = index_.placeholder_names()[placeholder];
  std::optional<int> spec_index = index_.input_spec_index(out.placeholder);
  if (!spec_index) return out;
  const ir::InputSpec& spec = index_.signature().input_specs(*spec_index);
  out.input_spec = *spec_index;
  out.kind = state_kind_of(spec);
  out.target = out.kind == StateKind::kUserInput ? out.placeholder : input_spec_target(spec);
  return out;
}

std::string ProgramDataflow::describe_state(int placeholder) const {
  PlaceholderState s = state(placeholder);
  if (s.kind == StateKind::kNone) return fmt::format("placeholder `{}`", s.placeholder);
  return fmt::format("{} `{}`", state_kind_words(s.kind), s.target);
}

std::string_view ProgramDataflow::short_target(int node) const {
  std::string_view target = index_.graph().nodes(node).target();
  constexpr std::string_view kPrefix = "torch.ops.";
  return target.starts_with(kPrefix) ? target.substr(kPrefix.size()) : target;
}

std::string ProgramDataflow::describe_node(int node) const {
  // auto_functionalized(_v2) stands for a custom op: name it (auto_functionalized.h).
  if (std::string_view op = auto_functionalized_op(index_.graph().nodes(node)); !op.empty()) {
    if (op.starts_with("torch.ops.")) op.remove_prefix(10);
    return fmt::format("node `{}` ({} of {})", index_.node_name(node), short_target(node), op);
  }
  return fmt::format("node `{}` ({})", index_.node_name(node), short_target(node));
}

std::vector<std::string> ProgramDataflow::chain_notes(const std::vector<TraceStep>& chain) const {
  std::vector<std::string> notes;
  for (const TraceStep& s : chain) {
    switch (s.kind) {
      case StepKind::kPlaceholder:
        notes.push_back(fmt::format("`{}` is the placeholder of {}", s.value, describe_state(s.placeholder)));
        break;
      case StepKind::kOpaque:
        if (s.node >= 0)
          notes.push_back(fmt::format("`{}` is a fresh value computed by {}", s.value, describe_node(s.node)));
        break;
      default:
        notes.push_back(fmt::format("`{}` = {} of `{}` by {}", s.value, step_kind_name(s.kind), s.next,
                                    describe_node(s.node)));
        break;
    }
  }
  return notes;
}

}  // namespace pt2lint::dataflow
