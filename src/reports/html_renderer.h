#pragma once

#include "reports/renderer.h"

namespace pt2lint {

// One self-contained HTML page (no network: style, script and pictures inline): a summary
// by file, program, rule and severity; every finding with its message, notes, fix and the
// picture of its slice (Finding::picture, drawn by graph::finding_picture_observer); filters
// by rule and severity; the rule docs; the effective mutation set of each program.
class HtmlRenderer final : public Renderer {
 public:
  void render(const RunReport& report, const RenderOptions& options,
              std::ostream& out) const override;
};

}  // namespace pt2lint
