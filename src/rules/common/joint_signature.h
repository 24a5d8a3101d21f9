// Joint programs (forward and backward in one graph, torch.export.experimental.
// _export_forward_backward): what the joint-graph rules (PT212-PT215) share.
//
// Measured on PyTorch 2.11 (tests/data/device/soundness/): a joint program is ATEN; its
// output specs are the buffer mutations, then one LOSS_OUTPUT (a scalar), then one
// GRADIENT_TO_PARAMETER per parameter in input order, then one GRADIENT_TO_USER_INPUT per user
// input that requires grad. Every parameter receives a gradient (_export_forward_backward
// refuses a parameter that does not).
#pragma once

#include <optional>
#include <string_view>

#include "program.pb.h"

namespace pt2lint {

class ProgramIndex;

// Whether some output spec is a loss or a gradient.
bool is_joint_signature(const ir::GraphSignature& signature);

// The input spec a gradient output is declared for: the parameter it names
// (GRADIENT_TO_PARAMETER) or the user input (GRADIENT_TO_USER_INPUT), or nullopt when it
// names none, or when the output spec is not a gradient.
std::optional<int> gradient_input_spec(const ProgramIndex& index, const ir::OutputSpec& spec);

// "parameter" or "user input", for messages; "" for another spec.
std::string_view gradient_target_words(const ir::OutputSpec& spec);
// The name the gradient spec declares (parameter FQN or user input name).
std::string_view gradient_target(const ir::OutputSpec& spec);

}  // namespace pt2lint
