#pragma once

#include "reports/renderer.h"

namespace pt2lint {

// SARIF 2.1.0 for GitHub code scanning and other SARIF viewers.
class SarifRenderer final : public Renderer {
 public:
  void render(const RunReport& report, const RenderOptions& options,
              std::ostream& out) const override;
};

}  // namespace pt2lint
