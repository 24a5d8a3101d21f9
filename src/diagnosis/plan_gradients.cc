// Output side of the repair planner, for joint programs (torch.export.experimental.
// _export_forward_backward): gradient outputs declared for the wrong parameter or user input
// (two targets exchanged, a target renamed to a parameter that does not exist, one parameter
// named twice). Nothing in the graph ties a gradient to its input by dataflow (a weight's
// gradient is computed from the activations, not from the weight), so the evidence is the
// tensor metadata: a gradient has its input's shape and dtype. A gradient spec whose target
// resolves, fits, and is the only one naming that input stays as it is. The others are paired
// with the inputs left without a gradient, and only when exactly one pairing fits every
// one of them; a tie (two candidates of one shape and dtype) is ambiguous, with the candidates.
// A frozen parameter (requires_grad false) is no candidate.
#include <fmt/format.h>

#include <algorithm>
#include <map>
#include <string>
#include <vector>

#include "analysis/program_index.h"
#include "analysis/state/state_storage.h"
#include "core/rule_catalogue.h"
#include "diagnosis/planner.h"
#include "rules/common/joint_signature.h"

namespace pt2lint::diagnosis {
namespace {

// An input a gradient may be declared for: a parameter storage (tied names are one) or a user
// input.
struct GradientInput {
  std::string target;  // the name a gradient spec gives it: parameter FQN, user input name
  std::string key;     // the storage's canonical name; the user input's own name
  std::string meta;    // "(8, 6) float32"; "" when unknown
};

// The gradient specs that need a target, and the inputs left without a gradient: every
// injective pairing of the first with the second in which each fits, up to `limit` of them.
void gradient_pairings(const std::vector<std::string>& metas, const std::vector<const GradientInput*>& free,
              std::vector<int>& current, std::vector<bool>& used, std::vector<std::vector<int>>& found,
              std::size_t limit) {
  if (found.size() >= limit) return;
  const std::size_t k = current.size();
  if (k == metas.size()) {
    found.push_back(current);
    return;
  }
  for (std::size_t c = 0; c < free.size() && found.size() < limit; ++c) {
    if (used[c] || free[c]->meta != metas[k]) continue;
    used[c] = true;
    current.push_back(static_cast<int>(c));
    gradient_pairings(metas, free, current, used, found, limit);
    current.pop_back();
    used[c] = false;
  }
}

std::string gradient_names(const std::vector<std::string>& names) {
  std::string out;
  for (const std::string& name : names) out += fmt::format("{}`{}`", out.empty() ? "" : ", ", name);
  return out.empty() ? "none" : out;
}

}  // namespace

void Planner::pair_gradients() {
  if (!is_joint_signature(index_.signature())) return;
  auto& slots = draft_.outputs;
  for (const bool parameters : {true, false}) {
    const StateKind kind = parameters ? StateKind::kParameter : StateKind::kUserInput;
    const std::string spec_kind = parameters ? "gradient_to_parameter" : "gradient_to_user_input";
    auto is_gradient = [&](const OutputSlot& slot) {
      return parameters ? slot.spec.has_gradient_to_parameter() : slot.spec.has_gradient_to_user_input();
    };
    auto key_of = [&](std::string_view name) {
      return parameters ? std::string(index_.storage().canonical(name)) : std::string(name);
    };
    // A frozen parameter (requires_grad false where others record true) gets no gradient from
    // _export_forward_backward, so it is no candidate; where no parameter records it, all are.
    auto requires_grad = [&](const DeclaredState& state) {
      const ir::TensorMeta* meta = index_.tensor_meta(index_.placeholder_names()[state.placeholder]);
      return meta != nullptr && meta->requires_grad();
    };
    const bool recorded = parameters && std::any_of(states_.begin(), states_.end(), [&](const DeclaredState& s) {
      return s.kind == kind && s.placeholder >= 0 && requires_grad(s);
    });
    std::vector<GradientInput> inputs;
    for (const DeclaredState& state : states_) {
      if (state.kind != kind || state.placeholder < 0) continue;
      if (recorded && !requires_grad(state)) continue;
      const std::string key = key_of(state.target);
      if (std::any_of(inputs.begin(), inputs.end(), [&](const GradientInput& in) { return in.key == key; }))
        continue;
      inputs.push_back({state.target, key, facts_.fact(index_.placeholder_names()[state.placeholder]).meta});
    }
    auto input_of = [&](std::string_view target) -> const GradientInput* {
      const std::string key = key_of(target);
      for (const GradientInput& in : inputs)
        if (in.key == key) return &in;
      return nullptr;
    };
    // The specs naming each input and fitting it; one such spec alone is kept.
    std::vector<int> gradients;
    std::map<std::string, std::vector<int>> fitting;
    for (std::size_t i = 0; i < slots.size(); ++i) {
      if (!is_gradient(slots[i])) continue;
      gradients.push_back(static_cast<int>(i));
      const GradientInput* in = input_of(output_spec_target(slots[i].spec));
      const std::string& meta = facts_.fact(slots[i].value()).meta;
      if (in != nullptr && !meta.empty() && meta == in->meta) fitting[in->key].push_back(static_cast<int>(i));
    }
    std::vector<int> wrong;
    std::vector<const GradientInput*> free;
    for (int i : gradients) {
      const GradientInput* in = input_of(output_spec_target(slots[i].spec));
      if (in == nullptr || fitting[in->key] != std::vector<int>{i}) wrong.push_back(i);
    }
    if (wrong.empty()) continue;
    for (const GradientInput& in : inputs)
      if (fitting[in.key].size() != 1) free.push_back(&in);

    RootCause cause{"gradient-pairing"};
    cause.rules = {&kJointGradientNamesInput, &kJointGradientMatchesInput};
    std::vector<std::string> metas;
    bool unknown = false;
    for (int i : wrong) {
      cause.output_specs.push_back(slots[i].original);
      metas.push_back(facts_.fact(slots[i].value()).meta);
      unknown = unknown || metas.back().empty();
    }
    std::vector<std::string> free_names;
    for (const GradientInput* in : free) free_names.push_back(in->target);
    const std::string what = parameters ? "parameter" : "user input";
    std::vector<std::vector<int>> found;
    if (!unknown) {
      std::vector<int> current;
      std::vector<bool> used(free.size(), false);
      gradient_pairings(metas, free, current, used, found, 2);
    }
    cause.message = fmt::format("{} gradient(s) are declared for the wrong {} (a name that does not resolve, "
                                "one input named twice, or a shape or dtype that is not the input's)",
                                wrong.size(), what);
    if (found.size() != 1) {
      for (std::size_t k = 0; k < wrong.size(); ++k) {
        std::vector<std::string> candidates;
        for (const GradientInput* in : free)
          if (!metas[k].empty() && in->meta == metas[k]) candidates.push_back(in->target);
        const int i = wrong[k];
        cause.notes.push_back(spec_note(
            fmt::format("output_specs[{}] (`{}`, {}) names `{}`; the {}s without a gradient of its shape and dtype: "
                        "{}",
                        i, slots[i].value(), metas[k].empty() ? "no metadata" : metas[k],
                        output_spec_target(slots[i].spec), what, gradient_names(candidates)),
            slots[i].original));
      }
      cause.ambiguity =
          unknown ? "a gradient has no shape or dtype in the program, so nothing ties it to an input"
          : found.empty()
              ? fmt::format("no pairing of these gradients with the {}s left without one ({}) fits every shape and "
                            "dtype",
                            what, gradient_names(free_names))
              : fmt::format("more than one pairing with the {}s left without a gradient ({}) fits every shape and "
                            "dtype: which gradient belongs to which cannot be told",
                            what, gradient_names(free_names));
      add_cause(std::move(cause));
      continue;
    }
    for (std::size_t k = 0; k < wrong.size(); ++k) {
      const int i = wrong[k];
      const GradientInput& meant = *free[found.front()[k]];
      const std::string written(output_spec_target(slots[i].spec));
      if (written == meant.target) continue;
      cause.states.push_back(meant.target);
      cause.notes.push_back(spec_note(fmt::format("output_specs[{}] (`{}`, {}) names `{}`, but it is the gradient "
                                                  "of {} `{}`, the one {} left without a gradient of that shape "
                                                  "and dtype",
                                                  i, slots[i].value(), metas[k], written, what, meant.target, what),
                                      slots[i].original));
      apply(cause, {EditOp::kRetarget, i, -1, spec_kind, meant.target});
    }
    if (cause.edits.empty()) continue;
    add_cause(std::move(cause));
  }
}

}  // namespace pt2lint::diagnosis
