// The mutation contract of a program: the promises a lowering must keep. It holds the user
// inputs (name, shape, dtype), the user outputs (count, shape, dtype, tree spec) and every
// written state (target, kind, its shape and dtype, and the value written back), and in a joint
// program every gradient (its input, shape and dtype). Values are
// described by what they are (the state they are an update of, their shape and dtype),
// never by node name, so a TRAINING program and its ATEN lowering have the same contract.
#pragma once

#include <string>
#include <vector>

#include "core/ir/state_kind.h"
#include "program.pb.h"

namespace pt2lint {

// A value as the contract sees it.
struct ValueFacts {
  std::string kind;   // "tensor", "sym_int", "int", "float", "bool", "none", "string", ...
  std::string shape;  // "(2, 4)", "()" ; "" for a non-tensor
  std::string dtype;  // "float32" ; "" for a non-tensor
  std::string text() const;  // "(2, 4) float32", "int 3", "none"
  bool operator==(const ValueFacts&) const = default;
};

struct UserInputPromise {
  std::string name;
  ValueFacts value;
  // Where it is in its own program's input specs, for findings to point at. Not part of the
  // promise: a lowering that lifts more state moves user inputs without changing them.
  int input_spec = -1;
  bool operator==(const UserInputPromise& other) const {
    return name == other.name && value == other.value;
  }
};

struct UserOutputPromise {
  ValueFacts value;
  bool operator==(const UserOutputPromise&) const = default;
};

struct WritePromise {
  std::string target;   // FQN, or the placeholder name of a user input
  StateKind kind = StateKind::kNone;  // buffer, parameter, user input, tensor constant
  ValueFacts state;     // the target's own shape and dtype; kind "" when it does not resolve
  std::string base;     // the state the written value is an update of; "" for a full
                        // overwrite or an unknown origin
  ValueFacts value;     // shape and dtype of the value written back
  // The other names of the written storage (src/analysis/state/state_storage.h): every one of
  // them sees the write. `diff` matches a write under any of these names.
  std::vector<std::string> aliases;
  // Whether the program reads the state's old value (src/analysis/state/initial_state.h):
  // "depends", "overwritten" or "undecided". A portability fact, not a promise.
  std::string initial_value;
  std::string initial_value_why;  // the node that decides it, in words
  // The promise only: where it comes from does not count.
  bool operator==(const WritePromise& other) const {
    return target == other.target && kind == other.kind && state == other.state &&
           base == other.base && value == other.value;
  }

  // Where it comes from, for messages only (not part of the promise).
  int output_spec = -1;       // the write-back output; -1 for an in-place write
  std::string value_name;     // the value written back, or the in-place writer node
};

// A gradient a joint program returns (GRADIENT_TO_PARAMETER, GRADIENT_TO_USER_INPUT): which
// input it is the gradient of, and its shape and dtype. A lowering must return the same
// gradients: a dropped one leaves a weight untrained, a retargeted one trains the wrong weight.
struct GradientPromise {
  std::string target;                 // parameter FQN, or the user input's placeholder name
  StateKind kind = StateKind::kNone;  // kParameter or kUserInput
  ValueFacts value;                   // the gradient's shape and dtype
  ValueFacts input;                   // the input's own; kind "" when the target does not resolve
  // The other names of a parameter's storage (tied weights): a gradient under any of them is
  // the same promise.
  std::vector<std::string> aliases;
  bool operator==(const GradientPromise& other) const {
    return target == other.target && kind == other.kind && value == other.value && input == other.input;
  }

  // Where it comes from, for messages only (not part of the promise).
  int output_spec = -1;
  std::string value_name;
};

// State an op of unknown schema may write (src/analysis/dataflow/possible_writes.h): neither
// written nor not written as far as pt2lint can tell.
struct PossibleWritePromise {
  std::string target;
  StateKind kind = StateKind::kNone;
  std::vector<std::string> ops;  // "mylib.f.default", one per node it is passed to
};

struct ProgramContract {
  std::string program;  // "model", "decode", ...
  std::string dialect;  // "TRAINING", "ATEN", ...
  std::vector<UserInputPromise> user_inputs;
  std::vector<UserOutputPromise> user_outputs;
  std::string out_spec;  // the root call signature's out_spec, whitespace removed
  std::vector<WritePromise> writes;
  std::vector<PossibleWritePromise> possible_writes;  // not a promise: what cannot be decided
  std::vector<GradientPromise> gradients;  // joint programs only; in output-spec order
  // A joint program: some output is a loss or a gradient. Not a promise: `diff` compares
  // gradients only when the original is joint, since a joint program made from a forward one
  // (_export_forward_backward) gains its gradients by design.
  bool joint = false;
  // The tensor constants the program lifts, by FQN: not a promise, but where a written state
  // went when a pass folded it (`diff`: written-state-became-constant).
  std::vector<std::string> constants;

  // Contracts are equal when every promise is: names of values and nodes do not count.
  bool same_promises(const ProgramContract& other) const;
};

// Which program writes and which reads each state that several programs of one archive share
// (src/analysis/state/shared_state.h).
struct SharedStatePromise {
  std::string target;
  StateKind kind = StateKind::kNone;
  std::vector<std::string> writers;
  std::vector<std::string> readers;  // read, never written
};

struct OpKnowledge;
std::vector<SharedStatePromise> derive_shared_state(const std::vector<const ir::Program*>& programs,
                                                    const OpKnowledge& ops);
ProgramContract derive_contract(const ir::Program& program);
ProgramContract derive_contract(const ir::Program& program, const OpKnowledge& ops);

}  // namespace pt2lint
