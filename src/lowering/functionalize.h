// The reference lowering: functionalizes the state writes of a TRAINING-dialect program.
//
// Each in-place write becomes its functional twin from the operator table; a write through a
// view is carried back to its base by the matching `*_scatter` op (or the inverse view);
// batch_norm in training mode becomes `_native_batch_norm_legit_functional` with new running
// statistics. Every later read sees the new value. Each written buffer, parameter and user
// input gets one mutation output, before the user outputs, in input-spec order, and the
// program is declared ATEN. Nothing else is decomposed: every other op is kept as it is.
// The point is to be obviously correct, so anything it cannot express exactly is refused
// with a message rather than approximated.
#pragma once

#include <string>

#include "program.pb.h"
#include "support/status.h"

namespace pt2lint::opschema {
class SchemaCatalog;
}

namespace pt2lint::lowering {

struct Functionalized {
  int writes = 0;  // in-place writes rewritten
};

// Rewrites `program` in place; on failure it is left unspecified and the message says why.
// A whole program also gets effect tokens for its effectful calls (effect_tokens.h); the body
// of a higher-order op (`whole_program` false) does not. A custom op that `schemas` (or the
// bundled files) says writes its arguments becomes an auto_functionalized_v2 node
// (auto_functionalize.h).
Expected<Functionalized> functionalize(ir::Program& program, bool whole_program = true,
                                          const opschema::SchemaCatalog* schemas = nullptr);

}  // namespace pt2lint::lowering
