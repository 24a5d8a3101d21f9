// Learning which arguments a custom op writes from an ATEN twin: functionalization turned
// each call of a mutating custom op into an auto_functionalized_v2 node whose
// `_<arg>_base_index` inputs name the written arguments (see dataflow/auto_functionalized.h).
// `pt2lint diff TRAINING ATEN` uses that for ops no schema source declares.
#pragma once

#include <string>
#include <vector>

#include "program.pb.h"

namespace pt2lint {

namespace opschema {
class SchemaCatalog;
}

struct LearnedSchema {
  std::string op;                    // serialized target: "torch.ops.mylib.f.default"
  std::vector<std::string> written;  // argument names
  std::string line;                  // the schema built from a call of the op, writes marked
};

// For every op called in `programs` with no schema in `known` (or the table, or the bundle)
// whose writes an auto_functionalized node of `twins` records.
std::vector<LearnedSchema> learn_schemas(const std::vector<ir::Program>& programs,
                                         const std::vector<ir::Program>& twins,
                                         const opschema::SchemaCatalog* known);

}  // namespace pt2lint
