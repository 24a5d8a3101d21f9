// `lower --rename-nested`: gives every buffer with a dotted FQN the flat name a backend that
// cannot register dotted attributes uses (`a.b.c` -> `lifted_buf_a_b_c`, then `_1`, `_2` on a
// clash, as Torch-TensorRT's inline_lifted_buffers_into_gm does). The input specs, the
// mutation targets and the state entries are renamed together, and the mapping is recorded
// in the program so that `pt2lint diff` can follow it. Renaming only some of those places is
// exactly the field bug this exists to show, so the scope can be narrowed (tests do).
#pragma once

#include <map>
#include <optional>
#include <string>
#include <utility>
#include <vector>

#include "program.pb.h"

namespace pt2lint::lowering {

using Renames = std::vector<std::pair<std::string, std::string>>;  // old FQN -> new, in spec order

struct RenameScope {
  bool input_specs = true;
  bool mutation_targets = true;
  bool state_entries = true;  // weights / constants config keys
};

// The metadata key under which the mapping is recorded: an entry of the JSON object in
// graph_module.metadata["custom"], which torch.export.load keeps as module.meta["custom"].
inline constexpr const char* kRenameMetadataKey = "pt2lint.renamed_buffers";

Renames plan_nested_buffer_renames(const ir::Program& program);
void apply_renames(ir::Program& program, const Renames& renames, RenameScope scope = {});
// Adds the mapping to graph_module.metadata["custom"] (creating it when absent).
void record_renames(ir::Program& program, const Renames& renames);

// The mapping a program records, from `custom` or a top-level metadata entry of that name;
// nullopt when it records none. `error` is set when one is recorded but unreadable.
std::optional<std::map<std::string, std::string>> recorded_renames(const ir::Program& program,
                                                                   std::string& error);

}  // namespace pt2lint::lowering
