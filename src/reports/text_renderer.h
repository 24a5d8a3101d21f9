#pragma once

#include "reports/renderer.h"

namespace pt2lint {

// Compiler-style text: `file:model: severity: message [ID name]`, then notes.
class TextRenderer final : public Renderer {
 public:
  void render(const RunReport& report, const RenderOptions& options,
              std::ostream& out) const override;
};

}  // namespace pt2lint
