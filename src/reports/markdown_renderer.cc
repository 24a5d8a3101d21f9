#include "reports/markdown_renderer.h"

#include "reports/markdown_pictures.h"
#include "reports/markdown_summary.h"

namespace pt2lint {

void MarkdownRenderer::render(const RunReport& report, const RenderOptions& options,
                              std::ostream& out) const {
  write_markdown_summary(report, options, out);
  write_markdown_pictures(report, out);
}

}  // namespace pt2lint
