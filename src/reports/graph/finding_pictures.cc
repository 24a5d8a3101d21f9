#include "reports/graph/finding_pictures.h"

#include <fmt/format.h>

#include <memory>
#include <sstream>

#include "analysis/program_index.h"
#include "reports/graph/picture_builders.h"
#include "reports/graph/picture_writers.h"
#include "reports/review_text.h"

namespace pt2lint::graph {

std::string finding_picture_title(const Finding& finding) {
  return fmt::format("{} {}{}{}", finding.rule_id, finding.rule_name,
                     finding.program.empty() ? "" : " · ", finding.program);
}

namespace {

// Whether a picture shows any flow: an edge between two boxes of the program. A finding box
// pointing at one state (a state-dict entry) or a "no program graph" box shows none.
bool has_dataflow(const Picture& picture) {
  for (const Edge& edge : picture.edges) {
    if (edge.kind == EdgeKind::kData || edge.kind == EdgeKind::kWriteBack) return true;
    if (picture.boxes[static_cast<std::size_t>(edge.from)].kind != BoxKind::kMissing) return true;
  }
  return false;
}

// Sets each finding's picture, drawn in `language`, where the picture shows some dataflow.
void draw_finding_pictures(const std::vector<ir::Program*>& programs, FileResult& result,
                           PictureLanguage language) {
  // One index per program that has findings, built on first use.
  std::vector<std::unique_ptr<ProgramIndex>> indexes(programs.size());
  auto index_of = [&](const std::string& name) -> const ProgramIndex* {
    for (std::size_t p = 0; p < programs.size(); ++p) {
      if (programs[p]->name() != name) continue;
      if (!indexes[p]) indexes[p] = std::make_unique<ProgramIndex>(*programs[p]);
      return indexes[p].get();
    }
    return nullptr;
  };
  // Only the primaries and the first findings each explains get a picture: a root cause
  // explaining 40,000 findings costs kMaxFoldedPicturesDrawn pictures, not 40,000.
  const std::vector<char> listed = listed_in_report(result, kMaxFoldedPicturesDrawn);
  for (std::size_t i = 0; i < result.findings.size(); ++i) {
    if (!listed[i]) continue;
    Finding& finding = result.findings[i];
    Picture picture = finding_picture(index_of(finding.program), finding, finding_picture_title(finding));
    // No picture rather than an empty one (a state-dict entry, a malformed file).
    if (!has_dataflow(picture)) continue;
    std::ostringstream out;
    if (language == PictureLanguage::kSvg) {
      write_svg(picture, out, kPageIdPrefix, /*with_markers=*/false);
    } else {
      write_mermaid(picture, out);
    }
    finding.picture = out.str();
  }
}

}  // namespace

CheckedFileObserver finding_picture_observer(PictureLanguage language) {
  if (language == PictureLanguage::kNone) return {};
  return [language](const std::vector<ir::Program*>& programs, FileResult& result) {
    draw_finding_pictures(programs, result, language);
  };
}

}  // namespace pt2lint::graph
