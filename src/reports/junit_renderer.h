#pragma once

#include "reports/renderer.h"

namespace pt2lint {

// JUnit XML (GitLab, Jenkins): one testcase per program and rule.
class JunitRenderer final : public Renderer {
 public:
  void render(const RunReport& report, const RenderOptions& options,
              std::ostream& out) const override;
};

}  // namespace pt2lint
