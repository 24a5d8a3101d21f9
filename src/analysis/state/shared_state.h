// The state the programs of one archive share by name. A prefill/decode/reset package (several
// programs saved by package_pt2, the way ExecuTorch's multi-method export works) keeps one set of
// weights and buffers for all of them: a name lifted by two programs is one storage at run time.
// This lists every such name with how each program declares and uses it.
#pragma once

#include <span>
#include <string>
#include <string_view>
#include <vector>

#include "core/ir/state_kind.h"
#include "program.pb.h"

namespace pt2lint {

struct OpKnowledge;

struct SharedStateUse {
  const ir::Program* program = nullptr;
  StateKind kind = StateKind::kNone;  // parameter, buffer, tensor constant, custom object
  std::string facts;             // "(1, 8, 4) float32"; "" when the placeholder has no metadata
  bool symbolic = false;         // a size is a symbol: the facts are not comparable
  std::string_view placeholder;  // its graph input in that program
  int input_spec = -1;
  bool read = false;     // a node reads it or a graph output returns it
  bool written = false;  // it is in the program's effective mutation set
};

struct SharedState {
  std::string_view fqn;
  std::vector<SharedStateUse> uses;  // one per program that lifts it, in archive order
};

// Every state name that two or more of `programs` lift, in the order the first program that lifts
// it lists it. Programs the loader did not read (`not_checked`) are left out. Costs one index and
// one dataflow pass per program; nothing for a single program.
std::vector<SharedState> shared_state(std::span<const ir::Program* const> programs,
                                      const OpKnowledge& ops);

}  // namespace pt2lint
