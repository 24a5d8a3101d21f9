// The words a review bot shows for one finding, shared by the CI formats (github, junit,
// markdown, rdjson, gitlab, sarif): the message, its notes, the fix, and where the finding
// stands in its root-cause group ("explains N more" on a primary, "caused by" on the others).
#pragma once

#include <string>
#include <string_view>
#include <vector>

#include "engine/engine.h"

namespace pt2lint {

// The message, then "note: ...", "fix: ..." and the grouping line, joined by `separator`.
std::string review_message(const FileResult& file, const Finding& finding,
                           std::string_view separator);

// Whether a format that shows each root cause once shows this finding: a primary or an
// ungrouped finding, not one folded under its primary.
inline bool shown_once_per_cause(const Finding& finding) { return !finding.cause.has_value(); }

// How many of the findings one root cause explains a report that lists them (HTML) lists;
// it counts the rest in one line. A file with 40,000 write-backs of one buffer then costs a
// page of 200 findings, not 40,000 (each with its picture).
inline constexpr std::size_t kMaxFoldedFindingsListed = 200;

// For each finding of `file`, whether a report that lists folded findings lists it: a
// primary, an ungrouped finding, or one of the first kMaxFoldedFindingsListed its primary
// explains (in the primary's order; `per_cause` of them). O(findings).
std::vector<char> listed_in_report(const FileResult& file, std::size_t per_cause = kMaxFoldedFindingsListed);

// Of those, how many per root cause get a picture (the rest are listed without one): the
// pictures of one cause's findings look alike, and each costs a walk of the program.
inline constexpr std::size_t kMaxFoldedPicturesDrawn = 20;

}  // namespace pt2lint
