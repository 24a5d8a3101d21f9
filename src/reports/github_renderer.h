#pragma once

#include "reports/renderer.h"

namespace pt2lint {

// GitHub Actions workflow-command annotations, plus a Markdown step summary.
class GithubRenderer final : public Renderer {
 public:
  void render(const RunReport& report, const RenderOptions& options,
              std::ostream& out) const override;
};

}  // namespace pt2lint
