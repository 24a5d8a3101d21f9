#pragma once

#include "reports/renderer.h"

namespace pt2lint {

// A Markdown summary for a pull-request comment.
class MarkdownRenderer final : public Renderer {
 public:
  void render(const RunReport& report, const RenderOptions& options,
              std::ostream& out) const override;
};

}  // namespace pt2lint
