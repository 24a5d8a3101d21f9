#include "reports/markdown_renderer.h"

#include "reports/markdown_summary.h"

namespace pt2lint {

void MarkdownRenderer::render(const RunReport& report, const RenderOptions& options,
                              std::ostream& out) const {
  write_markdown_report(report, options, out);
}

}  // namespace pt2lint
