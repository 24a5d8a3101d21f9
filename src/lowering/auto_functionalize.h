// Lowering a call of a custom op that writes its arguments (a known schema with `(a!)` and
// no functional twin in the operator table) the way PyTorch's functionalization does: into
// an `auto_functionalized_v2` node (see dataflow/auto_functionalized.h for the encoding).
// Every written tensor is passed as its own base (`_x_base_index`, no view replay): the
// caller carries each new value back through views as it does for any write.
#pragma once

#include <functional>
#include <optional>
#include <string>
#include <string_view>
#include <utility>
#include <vector>

#include "program.pb.h"
#include "analysis/opschema/op_schema.h"

namespace pt2lint {

namespace opschema {
class SchemaCatalog;
}

namespace lowering {

// A custom op's schema when it writes its arguments and the ATen table has no twin for it:
// those `lower` turns into auto_functionalized_v2.
std::optional<opschema::OpSchema> custom_mutating_schema(std::string_view target,
                                                         const opschema::SchemaCatalog* schemas);

struct AutoFunctionalizedLowering {
  ir::Node node;
  // (value the op wrote, name of its new value), one per distinct written tensor.
  std::vector<std::pair<std::string, std::string>> updates;
};

// Builds the node for `call`; `read` gives the current value of a name, `fresh` a new name.
// Returns "" or why the call cannot be expressed.
std::string lower_to_auto_functionalized_v2(const ir::Node& call, const opschema::OpSchema& schema,
                                            const std::function<std::string(const std::string&)>& read,
                                            const std::function<std::string(std::string_view)>& fresh,
                                            AutoFunctionalizedLowering& out);

}  // namespace lowering
}  // namespace pt2lint
