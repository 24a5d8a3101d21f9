#include "properties/reference_lower.h"

#include "lowering/functionalize.h"
#include "lowering/self_check.h"
#include "lowering/unmodelled_effects.h"

namespace pt2lint::properties {

std::optional<ir::Program> reference_lower(const ir::Program& program, std::string& why) {
  if (std::string refused = lowering::unmodelled_effects(program, nullptr, "FILE"); !refused.empty()) {
    why = std::move(refused);
    return std::nullopt;
  }
  ir::Program lowered = program;
  const lowering::FunctionalizeResult result = lowering::functionalize(lowered, /*whole_program=*/true);
  if (!result.ok) {
    why = result.error;
    return std::nullopt;
  }
  if (std::string problem = lowering::self_check(lowered); !problem.empty()) {
    why = std::move(problem);
    return std::nullopt;
  }
  return lowered;
}

}  // namespace pt2lint::properties
