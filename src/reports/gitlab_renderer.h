#pragma once

#include "reports/renderer.h"

namespace pt2lint {

// GitLab Code Quality JSON for the merge-request widget.
class GitlabRenderer final : public Renderer {
 public:
  void render(const RunReport& report, const RenderOptions& options,
              std::ostream& out) const override;
};

}  // namespace pt2lint
