// The mapping of renamed state a program records (`lower --rename-nested`, `fix` following a
// rename), which `pt2lint diff` follows to pair BEFORE's states with AFTER's. Read here, in
// the contract layer that compares; written by lowering/rename_nested.h.
#pragma once

#include <optional>

#include "contract/contract_diff.h"
#include "program.pb.h"
#include "support/status.h"

namespace pt2lint {

// The metadata key under which the mapping is recorded: an entry of the JSON object in
// graph_module.metadata["custom"], which torch.export.load keeps as module.meta["custom"].
inline constexpr const char* kRenameMetadataKey = "pt2lint.renamed_buffers";

// The mapping `program` records, from `custom` or a top-level metadata entry of that name;
// nullopt when it records none. Fails when one is recorded but unreadable.
Expected<std::optional<RenameMap>> recorded_renames(const ir::Program& program);

}  // namespace pt2lint
