// `lower --rename-nested`: gives every buffer with a dotted FQN the flat name a backend that
// cannot register dotted attributes uses (`a.b.c` -> `lifted_buf_a_b_c`, then `_1`, `_2` on a
// clash, as Torch-TensorRT's inline_lifted_buffers_into_gm does). The input specs, the
// mutation targets and the state entries are renamed together, and the mapping is recorded
// in the program so that `pt2lint diff` can follow it. Renaming only some of those places is
// exactly the field bug this exists to show, so the scope can be narrowed (tests do).
#pragma once

#include <string>
#include <utility>
#include <vector>

#include "contract/recorded_renames.h"
#include "program.pb.h"

namespace pt2lint::lowering {

using Renames = std::vector<std::pair<std::string, std::string>>;  // old FQN -> new, in spec order

struct RenameScope {
  bool input_specs = true;
  bool mutation_targets = true;
  bool state_entries = true;  // weights / constants config keys
};

Renames plan_nested_buffer_renames(const ir::Program& program);
void apply_renames(ir::Program& program, const Renames& renames, RenameScope scope = {});
// Adds the mapping to graph_module.metadata["custom"] under kRenameMetadataKey (creating it
// when absent); contract/recorded_renames.h reads it back.
void record_renames(ir::Program& program, const Renames& renames);

}  // namespace pt2lint::lowering
