// The diagnosis pass: from a program whose signature is broken, the root causes and the
// minimal signature edits that repair each one (see docs/fix.md). Nothing here guesses: an
// edit is proposed only when the dataflow facts or the saved state prove it, and a cause
// with two possible repairs is reported as ambiguous, without edits.
#pragma once

#include <set>
#include <string>
#include <vector>

#include "core/root_cause.h"

namespace pt2lint {

class ProgramIndex;

namespace diagnosis {

// Empty when the graph itself is unsound (no dataflow facts) or nothing needs repair.
// Edits of all causes apply in the order given: each index refers to the signature as the
// earlier edits left it.
// Every edit carries its proof (SignatureEdit::proof: safe or unsafe, and what decided it).
// `original_states` (fix --against ORIGINAL): ORIGINAL's state names; a state renamed
// consistently whose targets kept ORIGINAL's names is renamed back instead of followed.
std::vector<RootCause> plan_repairs(const ProgramIndex& index, const std::set<std::string>* original_states = nullptr);

}  // namespace diagnosis
}  // namespace pt2lint
