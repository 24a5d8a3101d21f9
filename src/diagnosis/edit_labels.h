// What decided each edit of a repair: safe (dataflow, the layout, exact names, the saved state,
// or the majority of the sources; applied by default) or unsafe (name similarity only; applied
// only with `fix --unsafe-fixes`), with the evidence in words (docs/fix.md, "Safe and unsafe
// edits"). The planner labels every edit it proposes; the label travels with the edit
// (SignatureEdit::proof) into `fix`'s messages, the JSON report's fix.edits and SARIF's fixes.
#pragma once

#include <string_view>

#include "core/signature_edit.h"

namespace pt2lint::diagnosis {

// The proof of an edit `op` of a cause of `kind` ("pairing", "swap", ...): the evidence that
// kind's row of docs/fix.md names ("proven by"). A move that restores the output layout is
// proven by the layout, whatever cause it belongs to. kNone for a kind without a row.
EditProof proof_of(std::string_view kind, EditOp op);

// Unsafe: several saved entries have the spec's shape and dtype, and only `entry`'s name is near.
EditProof by_name_similarity(std::string_view entry);

}  // namespace pt2lint::diagnosis
