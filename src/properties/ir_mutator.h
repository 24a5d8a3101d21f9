// The mutations a buggy lowering pass makes to an exported program, applied at random to IR
// programs: the structure-aware half of the pipeline fuzzer (tests/fuzz/pipeline_fuzzer.cc)
// and of the deterministic property test. Each mutation edits the protobuf directly and may
// well produce a broken program: that is the point. Nothing here decides what is correct.
#pragma once

#include <cstdint>
#include <optional>
#include <random>
#include <string_view>

#include "program.pb.h"

namespace pt2lint::properties {

enum class Mutation {
  kRetargetMutationOutput,  // a mutation output names another (or a mangled) state
  kSwapMutationTargets,     // two mutation outputs exchange their targets
  kDropNode,
  kDuplicateNode,
  kDropOutput,              // a graph output and/or its output spec
  kDuplicateOutput,
  kRenameValue,             // a value renamed everywhere, or at its definition only
  kChangeShape,
  kChangeDtype,
  kMoveOutputSpec,          // an output spec moved, with or without its graph output
  kInsertView,              // a view of a value, read by one of its later users
  kMoveNodeIntoSubgraph,
  kMoveNodeOutOfSubgraph,
  kUnknownSchemaOp,         // a node's op replaced by one whose schema nobody knows
  kTritonLaunch,            // a node replaced by a Triton launch taking its inputs in a kwargs dict
  kHostileName,             // a value or the program renamed with a newline, ANSI, a mention, ... (issue 24)
  kCount,
};

std::string_view mutation_name(Mutation mutation);

// Applies one mutation of a random kind (retrying other kinds when one does not apply).
std::optional<Mutation> mutate(ir::ProgramSet& set, std::mt19937_64& rng);

}  // namespace pt2lint::properties
