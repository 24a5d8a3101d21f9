// Draws every finding of a checked file while its IR is alive (an Engine observer), into
// Finding::picture, for the report formats that show pictures.
#pragma once

#include <vector>

#include "engine/engine.h"
#include "reports/graph/picture_language.h"

namespace pt2lint::graph {

// SVGs drawn for a page share the arrow markers of page_svg_defs() instead of repeating them.
inline constexpr std::string_view kPageIdPrefix = "pt2lint-";

// The observer that draws the pictures of a format (ReportFormat::pictures) in `language`;
// none ({}) for kNone, so that the formats without pictures pay nothing.
CheckedFileObserver finding_picture_observer(PictureLanguage language);

// "PT301 mutation-value-derives-from-target · decode": the title of a finding's picture.
std::string finding_picture_title(const Finding& finding);

}  // namespace pt2lint::graph
