// The Markdown summary shared by `--format markdown` (a PR comment) and `--format github`
// (appended to $GITHUB_STEP_SUMMARY): headline counts, a findings table, counts per rule.
#pragma once

#include <ostream>

#include "reports/renderer.h"

namespace pt2lint {

// Rows past this many are summarised in one line: GitHub caps a step summary at 1 MiB and
// a comment at 65,536 characters.
inline constexpr std::size_t kMaxMarkdownRows = 200;

void write_markdown_summary(const RunReport& report, const RenderOptions& options,
                            std::ostream& out);

}  // namespace pt2lint
