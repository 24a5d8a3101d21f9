// `pt2lint lower` on one program in memory, for the property checks: the same refusal of
// state passed to ops of unknown schema, the same functionalization and the same self-check
// as src/cli/lower_command.cc (without --rename-nested or --op-schemas).
#pragma once

#include <optional>
#include <string>

#include "program.pb.h"

namespace pt2lint::properties {

// The lowered program, or nullopt with `why` saying why lower refuses.
std::optional<ir::Program> reference_lower(const ir::Program& program, std::string& why);

}  // namespace pt2lint::properties
