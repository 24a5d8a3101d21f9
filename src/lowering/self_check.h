// `lower` checks its own output before writing it: the result must be a functional ATEN
// program (no op anywhere, subgraphs included, that writes its arguments) that `check`
// finds free of errors. A lowering that fails this is a pt2lint bug or a construct it does
// not model, and it is refused rather than written.
#pragma once

#include <string>

#include "program.pb.h"
#include "support/status.h"

namespace pt2lint::opschema {
class SchemaCatalog;
}

namespace pt2lint::lowering {

// Fails with the first problem of `lowered`, naming the node or the finding. `schemas` are the
// custom op schemas the lowering used (--op-schemas), or nullptr.
Status self_check(const ir::Program& lowered, const opschema::SchemaCatalog* schemas = nullptr);

}  // namespace pt2lint::lowering
