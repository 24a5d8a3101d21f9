// What a report format draws each finding's picture in (Finding::picture, docs/graph.md).
#pragma once

namespace pt2lint::graph {

enum class PictureLanguage {
  kNone,     // the format shows no pictures, and the run pays nothing for them
  kSvg,      // inline SVG (html)
  kMermaid,  // Mermaid source, which GitHub and GitLab draw (markdown)
};

}  // namespace pt2lint::graph
