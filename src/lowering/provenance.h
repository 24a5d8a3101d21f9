// Node metadata for the nodes the lowering creates. Each new node keeps the metadata of the
// node it replaces (stack trace, module stack, torch_fn) and gets a `from_node` entry in the
// format torch.fx writes, naming that node and its op. This is what lets a reader tell that
// `add(b_count, 1)` is the functional form of `b_count.add_(1)`: the dataflow rules, the
// contract and PyTorch's own provenance tooling all read it.
#pragma once

#include <string_view>

#include "program.pb.h"

namespace pt2lint::lowering {

inline constexpr std::string_view kLoweringPassName = "pt2lint.lower";

// Fills `created.metadata` from `origin`: a copy of its entries, with `from_node` replaced
// by one "create" record pointing at `origin` (whose own `from_node` history is nested).
void set_created_from(ir::Node& created, const ir::Node& origin, std::string_view origin_name);

}  // namespace pt2lint::lowering
