// The kind of state an input spec holds (program.proto's InputSpec union): a parameter, a
// buffer, a user input, ... Code compares kinds as this enum; the words leave it only through
// the spelling functions below. `state_kind_name` gives the words the JSON and SARIF reports,
// contracts and signature edits write ("user_input"): a contract other tools read, so they are
// exactly the InputSpec field names and never change.
#pragma once

#include <cstdint>
#include <optional>
#include <string_view>

namespace pt2lint {
namespace ir {
class InputSpec;
class OutputSpec;
}  // namespace ir

enum class StateKind : std::uint8_t {
  kNone,  // no input spec (a bare placeholder) or an unset union
  kUserInput,
  kParameter,
  kBuffer,
  kTensorConstant,
  kCustomObj,
  kToken,
  kConstantInput,
};

StateKind state_kind_of(const ir::InputSpec& spec);

// The report word: "user_input", "parameter", "buffer", "tensor_constant", "custom_obj",
// "token", "constant_input"; "" for kNone.
std::string_view state_kind_name(StateKind kind);
// The kind a report word names; nullopt for any other word (including ""). For text read from
// outside (signature edits, files), so the caller can refuse it with its own message.
std::optional<StateKind> parse_state_kind(std::string_view name);

// The kind in words, for messages: "user input", "tensor constant", "custom object",
// "constant input"; the other kinds as their report word.
std::string_view state_kind_words(StateKind kind);

// The state a mutation output writes: kBuffer, kParameter or kUserInput; kNone for an output
// that is not a mutation.
StateKind mutation_state_kind(const ir::OutputSpec& spec);
// The output spec kind that writes a state back: "buffer_mutation", "parameter_mutation",
// "user_input_mutation"; "" for a kind no mutation writes.
std::string_view mutation_spec_kind(StateKind kind);

}  // namespace pt2lint
