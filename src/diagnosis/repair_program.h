// Plans and applies the repair of one program: what `pt2lint fix` does per program.
#pragma once

#include <set>
#include <string>
#include <utility>
#include <vector>

#include "program.pb.h"
#include "core/root_cause.h"
#include "diagnosis/signature_draft.h"

namespace pt2lint::diagnosis {

struct ProgramRepair {
  std::vector<RootCause> causes;
  std::vector<SignatureEdit> edits;  // every cause's edits, in the order they apply
  std::string refusal;  // non-empty: no edit was applied, and why (an ambiguity, ...)
  bool needs_unsafe = false;  // refused only because an edit is unsafe (SignatureEdit::proof)
  bool state_entries_renamed = false;  // a weights/constants config key changed
  // State renamed consistently by the pass (specs and saved state) whose write-back targets
  // followed: clean name -> name now, for the mapping the program records (lowering).
  std::vector<std::pair<std::string, std::string>> followed_renames;
  SignatureDraft before, after;
};

struct RepairOptions {
  bool unsafe_fixes = false;  // also apply edits decided only by name similarity
  // fix --against ORIGINAL: ORIGINAL's state names (a consistent rename goes back to them).
  const std::set<std::string>* original_states = nullptr;
};

// Plans the repair of `program` and, unless it is refused, applies the edits to it.
ProgramRepair repair_program(ir::Program& program, const RepairOptions& options = {});

}  // namespace pt2lint::diagnosis
