// `pt2lint fix --against ORIGINAL`, the half that compares with ORIGINAL: the write-backs
// ORIGINAL's mutation contract promises that a file lost, restored where the file still
// computes their values (diagnosis/promised_write_backs.h), and the final word of `diff
// ORIGINAL RESULT` on what `fix` is about to write (docs/fix.md, "fix --against").
#pragma once

#include <string>

#include "lowering/repair_paths.h"
#include "support/status.h"

namespace pt2lint::lowering {

// Restores, in `fix.loaded` (already repaired in memory), every write ORIGINAL promises that a
// program lost; adds the edits and their diff to `fix`. False, with `fix.error`, when a write
// cannot be restored (an erased computation, a state no longer declared) or a program has no
// counterpart in ORIGINAL.
bool restore_against(const LoadedPrograms& original, FileFix& fix);

// OK when `diff ORIGINAL CANDIDATE` finds no broken promise (an undecidable write, PT414, is
// not a broken one); otherwise the findings in words.
Status keeps_contract(const std::string& original, const std::string& candidate);

}  // namespace pt2lint::lowering
