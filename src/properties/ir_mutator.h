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
  kHideBehindUnknownOp,     // a node's inputs handed to an unknown op in a list, a dict or a region (issue 22)
  kCount,
};

std::string_view mutation_name(Mutation mutation);

// The ways a node's tensor inputs reach an op outside the schema table (issue 22, item 1):
// directly, in one tensor list, in a kwargs dict, through the subgraph of a
// wrap_with_set_grad_enabled region, or through a region nested in another.
enum class UnknownOpPath { kDirect, kList, kKwargs, kRegion, kNestedRegion, kCount };
std::string_view unknown_op_path_name(UnknownOpPath path);

// Replaces node `node` of the main graph by an op outside the schema table
// (`fuzzlib.opaque`) that receives the node's tensor inputs along `path`, with the node's
// outputs; false when the node has no tensor input or calls a subgraph.
bool hide_behind_unknown_op(ir::Program& program, int node, UnknownOpPath path);

// Applies one mutation of a random kind (retrying other kinds when one does not apply).
std::optional<Mutation> mutate(ir::ProgramSet& set, std::mt19937_64& rng);

}  // namespace pt2lint::properties
