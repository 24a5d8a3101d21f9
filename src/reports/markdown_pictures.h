// The pictures section of `--format markdown`: a small Mermaid diagram of each finding's
// slice (Finding::picture), which GitHub renders in a pull-request comment.
#pragma once

#include <ostream>

#include "reports/renderer.h"

namespace pt2lint {

// A comment holds at most 65,536 characters: past this many findings, the section says how
// to draw the others (`pt2lint graph FILE --finding N`).
inline constexpr std::size_t kMaxMarkdownPictures = 10;

void write_markdown_pictures(const RunReport& report, std::ostream& out);

}  // namespace pt2lint
