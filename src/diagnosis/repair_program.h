// Plans and applies the repair of one program: what `pt2lint fix` does per program.
#pragma once

#include <string>
#include <vector>

#include "program.pb.h"
#include "core/root_cause.h"
#include "diagnosis/signature_draft.h"

namespace pt2lint::diagnosis {

struct ProgramRepair {
  std::vector<RootCause> causes;
  std::vector<SignatureEdit> edits;  // every cause's edits, in the order they apply
  std::string refusal;  // non-empty: no edit was applied, and why (an ambiguity, ...)
  SignatureDraft before, after;
};

// Plans the repair of `program` and, unless it is refused, applies the edits to it.
ProgramRepair repair_program(ir::Program& program);

}  // namespace pt2lint::diagnosis
