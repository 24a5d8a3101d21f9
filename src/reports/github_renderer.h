#pragma once

#include <cstddef>

#include "reports/renderer.h"

namespace pt2lint {

// GitHub Actions shows at most 10 error, 10 warning and 10 notice annotations per step, and
// 50 per job (actions/toolkit docs/problem-matchers.md, "Limitations").
inline constexpr std::size_t kMaxAnnotationsPerLevel = 10;

// GitHub Actions workflow-command annotations, one per root cause, plus the bounded Markdown
// report appended to the step summary.
class GithubRenderer final : public Renderer {
 public:
  void render(const RunReport& report, const RenderOptions& options,
              std::ostream& out) const override;
};

}  // namespace pt2lint
