// The graph signature as lines of text, and a unified diff of two such texts: what
// `pt2lint fix --dry-run` prints.
#pragma once

#include <string>
#include <vector>

#include "diagnosis/signature_draft.h"

namespace pt2lint::diagnosis {

// One line per input spec and per output spec (with its graph output when it names another
// value), without indices, so that a diff shows only what an edit changed.
std::vector<std::string> signature_lines(const SignatureDraft& draft);

// A unified diff (3 lines of context) from `before` to `after`; "" when they are equal.
std::string unified_diff(const std::vector<std::string>& before, const std::vector<std::string>& after,
                         const std::string& before_name, const std::string& after_name);

}  // namespace pt2lint::diagnosis
