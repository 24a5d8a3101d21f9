// DOT for Graphviz, `dot -Tsvg`: stable text (boxes and edges in the order they were added),
// so that goldens can compare it.
#include <fmt/format.h>

#include "reports/graph/picture_writers.h"

namespace pt2lint::graph {
namespace {

std::string dot_quote(std::string_view text) {
  std::string out = "\"";
  for (char c : text) {
    if (c == '\n') {
      out += "\\n";
      continue;
    }
    if (c == '"' || c == '\\') out += '\\';
    out += c;
  }
  return out + '"';
}

std::string_view box_attributes(BoxKind kind) {
  switch (kind) {
    case BoxKind::kState: return R"(style="rounded,filled", fillcolor="#dbeafe")";
    case BoxKind::kNode: return R"(style="filled", fillcolor="#ffffff")";
    case BoxKind::kCollapsed: return R"(style="dashed,filled", fillcolor="#f3f4f6")";
    case BoxKind::kOutput: return R"(style="filled", fillcolor="#fef3c7", shape=cds)";
    case BoxKind::kTarget: return R"(style="rounded,filled,bold", fillcolor="#dcfce7")";
    case BoxKind::kMissing: return R"(style="dashed,filled", fillcolor="#fee2e2", shape=octagon)";
  }
  return "";
}

std::string_view edge_attributes(EdgeKind kind) {
  switch (kind) {
    case EdgeKind::kData: return R"(color="#6b7280")";
    case EdgeKind::kWriteBack: return R"(color="#1d4ed8", style=bold)";
    case EdgeKind::kWrong:
      return R"(color="#dc2626", fontcolor="#dc2626", penwidth=3, style=bold, arrowhead=tee)";
    case EdgeKind::kExpected: return R"(color="#111827", style=dashed, arrowhead=empty)";
  }
  return "";
}

}  // namespace

std::string_view box_kind_words(BoxKind kind) {
  switch (kind) {
    case BoxKind::kState: return "state before the run: FQN, kind, shape";
    case BoxKind::kNode: return "node: name, op, shape";
    case BoxKind::kCollapsed: return "… N nodes …: a collapsed chain";
    case BoxKind::kOutput: return "output spec: kind → target";
    case BoxKind::kTarget: return "state after the run (write-back target)";
    case BoxKind::kMissing: return "missing: what should exist and does not";
  }
  return "";
}

std::string_view edge_kind_words(EdgeKind kind) {
  switch (kind) {
    case EdgeKind::kData: return "value flows";
    case EdgeKind::kWriteBack: return "writes back";
    case EdgeKind::kWrong: return "✗ wrong: bold, red, labelled";
    case EdgeKind::kExpected: return "expected: dashed";
  }
  return "";
}

void write_dot(const Picture& picture, std::ostream& out) {
  out << "digraph contract {\n";
  out << fmt::format("  graph [label={}, labelloc=t, fontname=\"Helvetica\", rankdir=TB];\n",
                     dot_quote(picture.title));
  out << "  node [shape=box, fontname=\"Helvetica\", fontsize=10];\n";
  out << "  edge [fontname=\"Helvetica\", fontsize=9];\n";
  for (const Box& box : picture.boxes) {
    std::string label = box.detail.empty() ? box.title : box.title + "\n" + box.detail;
    out << fmt::format("  {} [label={}, {}{}];\n", box.id, dot_quote(label), box_attributes(box.kind),
                       box.focus ? ", peripheries=2" : "");
  }
  for (const Edge& edge : picture.edges) {
    out << fmt::format("  {} -> {} [{}{}];\n", picture.boxes[edge.from].id, picture.boxes[edge.to].id,
                       edge_attributes(edge.kind),
                       edge.label.empty() ? "" : ", label=" + dot_quote(edge.label));
  }
  // The legend: one sample of every mark, in its own cluster.
  out << "  subgraph cluster_legend {\n    label=\"legend\"; fontsize=9; color=\"#9ca3af\";\n";
  const BoxKind kinds[] = {BoxKind::kState, BoxKind::kNode, BoxKind::kCollapsed,
                           BoxKind::kOutput, BoxKind::kTarget, BoxKind::kMissing};
  for (BoxKind kind : kinds)
    out << fmt::format("    legend_box{} [label={}, fontsize=8, {}];\n", static_cast<int>(kind),
                       dot_quote(box_kind_words(kind)), box_attributes(kind));
  const EdgeKind edges[] = {EdgeKind::kData, EdgeKind::kWriteBack, EdgeKind::kWrong,
                            EdgeKind::kExpected};
  for (EdgeKind kind : edges) {
    const int k = static_cast<int>(kind);
    out << fmt::format("    legend_from{0} [label=\"\", shape=point]; legend_to{0} [label=\"\", shape=point];\n", k);
    out << fmt::format("    legend_from{0} -> legend_to{0} [label={1}, {2}];\n", k,
                       dot_quote(edge_kind_words(kind)), edge_attributes(kind));
  }
  out << "  }\n}\n";
}

}  // namespace pt2lint::graph
