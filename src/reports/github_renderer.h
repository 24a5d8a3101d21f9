#pragma once

#include <cstddef>
#include <string>

#include "reports/renderer.h"
#include "support/status.h"

namespace pt2lint {

// GitHub Actions shows at most 10 error, 10 warning and 10 notice annotations per step, and
// 50 per job (actions/toolkit docs/problem-matchers.md, "Limitations").
inline constexpr std::size_t kMaxAnnotationsPerLevel = 10;

// GitHub Actions workflow-command annotations, one per root cause. The bounded Markdown report
// for the step summary is append_step_summary's (options.step_summary_path only says whether the
// job summary will list what the annotations leave out).
class GithubRenderer final : public Renderer {
 public:
  void render(const RunReport& report, const RenderOptions& options,
              std::ostream& out) const override;
};

// Appends the bounded Markdown report to `path` ($GITHUB_STEP_SUMMARY), which GitHub shows as
// the job summary; fails when the file cannot be opened or written.
Status append_step_summary(const RunReport& report, const RenderOptions& options,
                           const std::string& path);

}  // namespace pt2lint
