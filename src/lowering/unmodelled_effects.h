// What `lower` refuses before functionalizing: a construct whose effects pt2lint does not
// model (src/analysis/dataflow/op_effects.h) and that receives state, which may write it, and
// any user Triton launch, whose functional form PyTorch 2.11 cannot load back
// (torch.export.load refuses triton_kernel_wrapper_functional). Lowering either would have to
// guess; a refusal naming the op is the sound answer.
#pragma once

#include <string>

#include "program.pb.h"
#include "support/status.h"

namespace pt2lint::opschema {
class SchemaCatalog;
}

namespace pt2lint::lowering {

// Fails when something stands in the way, saying why: the state, the node and its op.
// `input` is the file's path, for the `pt2lint schemas --missing` hint.
Status unmodelled_effects(const ir::Program& program, const opschema::SchemaCatalog* schemas,
                          const std::string& input);

}  // namespace pt2lint::lowering
