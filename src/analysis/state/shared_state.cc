#include "analysis/state/shared_state.h"

#include <map>
#include <optional>

#include "analysis/dataflow/effective_mutations.h"
#include "analysis/dataflow/program_dataflow.h"
#include "analysis/dataflow/tensor_meta_text.h"
#include "analysis/program_index.h"

namespace pt2lint {
namespace {

bool is_lifted_state(StateKind kind) {
  return kind == StateKind::kParameter || kind == StateKind::kBuffer || kind == StateKind::kTensorConstant ||
         kind == StateKind::kCustomObj;
}

// Whether placeholder `p` is read: a node takes it, or a graph output returns it.
bool placeholder_read(const ProgramIndex& index, int p) {
  const std::string_view name = index.placeholder_names()[static_cast<std::size_t>(p)];
  if (!index.users(name).empty()) return true;
  for (std::string_view output : index.output_names())
    if (output == name) return true;
  return false;
}

// How one program lifts and uses each of its state names.
std::vector<std::pair<std::string_view, SharedStateUse>> uses_in(const ir::Program& program,
                                                                 const OpKnowledge& ops) {
  ProgramIndex index(program);
  index.set_op_knowledge(ops);
  dataflow::ProgramDataflow flow(index);
  std::vector<bool> written(index.placeholder_names().size(), false);
  for (const dataflow::StateWrite& write : dataflow::effective_mutations(index, flow.ops(), flow.tracer()))
    if (write.placeholder >= 0 && write.placeholder < static_cast<int>(written.size()))
      written[static_cast<std::size_t>(write.placeholder)] = true;

  std::vector<std::pair<std::string_view, SharedStateUse>> uses;
  const auto& placeholders = index.placeholder_names();
  for (std::size_t p = 0; p < placeholders.size(); ++p) {
    const std::optional<int> spec_index = index.input_spec_index(placeholders[p]);
    if (!spec_index) continue;
    const ir::InputSpec& spec = index.signature().input_specs(*spec_index);
    SharedStateUse use;
    use.kind = state_kind_of(spec);
    if (!is_lifted_state(use.kind)) continue;
    const std::string_view fqn = input_spec_target(spec);
    if (fqn.empty()) continue;
    use.program = &program;
    use.placeholder = placeholders[p];
    use.input_spec = *spec_index;
    if (const ir::TensorMeta* meta = index.tensor_meta(placeholders[p])) {
      use.facts = dataflow::meta_text(*meta);
      for (const ir::SymInt& size : meta->sizes()) use.symbolic = use.symbolic || !size.has_as_int();
    }
    use.read = placeholder_read(index, static_cast<int>(p));
    use.written = written[p];
    uses.emplace_back(fqn, std::move(use));
  }
  return uses;
}

}  // namespace

std::vector<SharedState> shared_state(std::span<const ir::Program* const> programs,
                                      const OpKnowledge& ops) {
  std::vector<SharedState> states;
  if (programs.size() < 2) return states;
  std::map<std::string_view, std::size_t> by_name;  // fqn -> index into states
  for (const ir::Program* program : programs) {
    if (program == nullptr || program->not_checked()) continue;
    for (auto& [fqn, use] : uses_in(*program, ops)) {
      auto [it, fresh] = by_name.emplace(fqn, states.size());
      if (fresh) states.push_back({fqn, {}});
      std::vector<SharedStateUse>& list = states[it->second].uses;
      // One entry per program: a name lifted twice by one program is another rule's finding.
      if (!list.empty() && list.back().program == program) continue;
      list.push_back(std::move(use));
    }
  }
  std::erase_if(states, [](const SharedState& s) { return s.uses.size() < 2; });
  return states;
}

}  // namespace pt2lint
