// One root cause found by the diagnosis pass: what went wrong in words, the minimal repair as
// signature edits, and which findings it explains. Plain data, so reports can carry it.
#pragma once

#include <string>
#include <vector>

#include "core/finding.h"
#include "core/rule_info.h"
#include "core/signature_edit.h"

namespace pt2lint {

struct RootCause {
  std::string kind;     // "swap", "pairing", "rename", "dropped-write-back", ... (docs/fix.md)
  std::string message{};  // names the cause
  std::vector<Note> notes{};    // what each misplaced value really is, the mapping, ...
  std::vector<SignatureEdit> edits{};  // the repair; empty when `ambiguity` says why none
  std::string repair{};   // the repair in words, when listing every edit would say it worse
  std::string ambiguity{};             // non-empty: no repair can be proven, and why
  // What it explains: findings at these original spec positions, about these states, or of
  // these rules anywhere in the program.
  std::vector<int> output_specs{};
  std::vector<int> input_specs{};
  std::vector<std::string> states{};
  // Catalogue entries (`&kOutputArityMatchesCallSpec`), not IDs as text: a misspelt rule
  // then fails to compile instead of silently explaining nothing.
  std::vector<const RuleInfo*> rules{};
};

}  // namespace pt2lint
