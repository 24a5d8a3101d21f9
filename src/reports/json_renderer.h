#pragma once

#include "reports/renderer.h"

namespace pt2lint {

// The JSON report: a contract other tools read (see README, "JSON report").
class JsonRenderer final : public Renderer {
 public:
  void render(const RunReport& report, const RenderOptions& options,
              std::ostream& out) const override;
};

}  // namespace pt2lint
