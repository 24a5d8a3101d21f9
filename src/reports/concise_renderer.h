#pragma once

#include "reports/renderer.h"

namespace pt2lint {

// One line per finding, `path:program: severity: message [ID name]`, then the summary line:
// for editors' problem matchers and for long runs read by people (--format concise).
// Findings folded under a root cause are left out unless --verbose, as in the text format.
class ConciseRenderer final : public Renderer {
 public:
  void render(const RunReport& report, const RenderOptions& options,
              std::ostream& out) const override;
};

}  // namespace pt2lint
