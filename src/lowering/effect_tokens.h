// Ops with side effects (`aten._print`) are ordered by effect tokens in the ATEN dialect, as
// PyTorch's functionalization does it: a token input spec first, each effectful call wrapped
// as `with_effects(token, op, *args)` returning the next token, and the last token returned
// by a token output spec first.
#pragma once

#include <string>

#include "program.pb.h"
#include "support/status.h"

namespace pt2lint::lowering {

// Threads tokens through the top-level effectful calls of a lowered program; fails, saying
// why, on an effectful op inside a subgraph.
Status thread_effect_tokens(ir::ExportedProgram& program);

}  // namespace pt2lint::lowering
