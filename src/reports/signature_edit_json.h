// One repair edit as the JSON report writes it (`fix.edits[]`), shared with SARIF's `fixes`.
#pragma once

#include "core/signature_edit.h"
#include "support/json_writer.h"

namespace pt2lint {

// Only the fields that apply to the edit's op are written, then what decided it (`safety`,
// `proof`, `proof_text`).
void write_edit(JsonWriter& json, const SignatureEdit& edit);

// The report word for an edit's, or a whole fix's, safety: "safe" or "unsafe" (a contract:
// JSON `fix.edits[].safety`, SARIF `fixes[].properties.safety` and the fix description).
inline std::string_view safety_word(bool safe) { return safe ? "safe" : "unsafe"; }

}  // namespace pt2lint
