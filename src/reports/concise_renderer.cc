#include "reports/concise_renderer.h"

#include "reports/run_summary.h"

namespace pt2lint {

void ConciseRenderer::render(const RunReport& report, const RenderOptions& options,
                             std::ostream& out) const {
  TextPalette palette{options.color};
  if (options.statistics) {
    write_statistics(report, out);
  } else {
    for (const FileResult& file : report.files) {
      for (const Finding& f : file.findings) {
        if (f.cause && !options.verbose) continue;
        write_finding_line(file.path, f, palette, out);
        out << '\n';
      }
    }
  }
  if (options.closing_summary) out << closing_summary(count_findings(report)) << '\n';
}

}  // namespace pt2lint
