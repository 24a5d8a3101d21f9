// Mermaid for Markdown: GitHub renders a ```mermaid block in pull-request comments, so a
// review bot's comment shows the slice. Wrong edges are thick (`==>`), red and labelled;
// expected edges dotted (`-.->`), as in the other writers.
#include <fmt/format.h>

#include "reports/escape/mermaid_escape.h"
#include "reports/graph/picture_writers.h"

namespace pt2lint::graph {
namespace {

std::string_view open_shape(BoxKind kind) {
  switch (kind) {
    case BoxKind::kState: case BoxKind::kTarget: return "([";
    case BoxKind::kOutput: return "[/";
    case BoxKind::kMissing: return "{{";
    default: return "[";
  }
}

std::string_view close_shape(BoxKind kind) {
  switch (kind) {
    case BoxKind::kState: case BoxKind::kTarget: return "])";
    case BoxKind::kOutput: return "/]";
    case BoxKind::kMissing: return "}}";
    default: return "]";
  }
}

std::string_view arrow(EdgeKind kind) {
  switch (kind) {
    case EdgeKind::kWrong: return "==>";
    case EdgeKind::kExpected: return "-.->";
    default: return "-->";
  }
}

}  // namespace

void write_mermaid(const Picture& picture, std::ostream& out) {
  out << "```mermaid\nflowchart TD\n";
  for (const Box& box : picture.boxes) {
    std::string label = mermaid_label(box.title);
    if (!box.detail.empty()) label += "<br/>" + mermaid_label(box.detail);
    if (box.focus) label = "<b>" + label + "</b>";
    out << fmt::format("  {}{}\"{}\"{}\n", box.id, open_shape(box.kind), label, close_shape(box.kind));
  }
  std::vector<std::size_t> wrong;
  for (std::size_t i = 0; i < picture.edges.size(); ++i) {
    const Edge& edge = picture.edges[i];
    out << fmt::format("  {} {}{} {}\n", picture.boxes[edge.from].id, arrow(edge.kind),
                       edge.label.empty() ? "" : "|\"" + mermaid_label(edge.label) + "\"|",
                       picture.boxes[edge.to].id);
    if (edge.kind == EdgeKind::kWrong) wrong.push_back(i);
  }
  for (std::size_t i : wrong) out << fmt::format("  linkStyle {} stroke:#dc2626,stroke-width:3px\n", i);
  out << "```\n";
}

}  // namespace pt2lint::graph
