// The words a review bot shows for one finding, shared by the CI formats (github, junit,
// markdown, rdjson, gitlab, sarif): the message, its notes, the fix, and where the finding
// stands in its root-cause group ("explains N more" on a primary, "caused by" on the others).
#pragma once

#include <string>
#include <string_view>

#include "engine/engine.h"

namespace pt2lint {

// The message, then "note: ...", "fix: ..." and the grouping line, joined by `separator`.
std::string review_message(const FileResult& file, const Finding& finding,
                           std::string_view separator);

// Whether a format that shows each root cause once shows this finding: a primary or an
// ungrouped finding, not one folded under its primary.
inline bool shown_once_per_cause(const Finding& finding) { return !finding.cause.has_value(); }

}  // namespace pt2lint
