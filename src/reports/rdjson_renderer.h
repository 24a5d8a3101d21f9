#pragma once

#include "reports/renderer.h"

namespace pt2lint {

// reviewdog's Diagnostic Format, one DiagnosticResult document (rdjson).
class RdjsonRenderer final : public Renderer {
 public:
  void render(const RunReport& report, const RenderOptions& options,
              std::ostream& out) const override;
};

}  // namespace pt2lint
