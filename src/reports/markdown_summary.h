// The Markdown report shared by `--format markdown` (a pull-request comment) and
// `--format github` (appended to $GITHUB_STEP_SUMMARY). It is bounded: a summary first
// (counts, findings per rule), then one entry per root cause, errors first, then pictures of
// primaries, and it stops before GitHub's comment limit with "N more findings in the full
// report".
#pragma once

#include <ostream>

#include "reports/renderer.h"

namespace pt2lint {

// GitHub rejects a comment body over 65,536 characters. The report counts bytes, which are
// never fewer than characters, and keeps this much under the limit for its closing lines.
inline constexpr std::size_t kMaxMarkdownChars = 65536;
inline constexpr std::size_t kMarkdownClosingReserve = 1024;
// One entry's message is clipped here, so that one long finding cannot crowd out the rest.
inline constexpr std::size_t kMaxMarkdownMessage = 2000;
// Mermaid pictures of primaries: each is a few hundred to a few thousand characters.
inline constexpr std::size_t kMaxMarkdownPictures = 10;

void write_markdown_report(const RunReport& report, const RenderOptions& options,
                           std::ostream& out);

}  // namespace pt2lint
