// A schema line to fill in for an op pt2lint has no schema for, guessed from how a node
// calls it: argument names and kinds from its inputs, returns from its outputs. The guess
// never marks a write: the user adds `(a!)` to the arguments the op writes.
#pragma once

#include <string>
#include <vector>

#include "program.pb.h"

namespace pt2lint::opschema {

// "mylib::update_cache(Tensor cache, Tensor x, int pos) -> Tensor", or "" for a target
// that is not `torch.ops.NS.OP.OVERLOAD`. Arguments named in `written` are marked
// `Tensor(aN!)` (learned writes, see contract/learned_schemas.h).
std::string schema_template(const ir::Node& node, const std::vector<std::string>& written = {});

}  // namespace pt2lint::opschema
