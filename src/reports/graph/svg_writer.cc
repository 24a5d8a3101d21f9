// SVG without Graphviz. A contract picture is small by construction (a few chains of at
// most five nodes, see kMaxChainNodes), so a simple layered layout reads well: each box sits
// one layer below its deepest predecessor, boxes of a layer are placed under the mean of
// their predecessors, and edges are drawn as curves from the bottom of one box to the top
// of the next. docs/graph.md says why this is done here rather than by libgvc.
#include <fmt/format.h>

#include <algorithm>
#include <numeric>
#include <sstream>

#include "reports/graph/picture_writers.h"
#include "reports/html/html_text.h"

namespace pt2lint::graph {
namespace {

constexpr double kCharWidth = 6.6;  // 11px monospace
constexpr double kBoxHeight = 38;
constexpr double kLayerGap = 64;
constexpr double kBoxGap = 24;
constexpr double kMargin = 16;
constexpr double kTitleHeight = 24;

// Characters on screen: UTF-8 continuation bytes take no room.
std::size_t text_columns(std::string_view text) {
  return static_cast<std::size_t>(
      std::count_if(text.begin(), text.end(), [](char c) { return (c & 0xC0) != 0x80; }));
}

struct Placed {
  double x = 0, y = 0, width = 0;
  int layer = 0;
};

std::vector<Placed> lay_out(const Picture& picture, double& width, double& height) {
  const std::size_t n = picture.boxes.size();
  std::vector<Placed> placed(n);
  std::vector<std::vector<int>> predecessors(n);
  for (const Edge& edge : picture.edges) predecessors[edge.to].push_back(edge.from);
  // Longest path from the sources; n rounds at most, so a cycle cannot hang it.
  for (std::size_t round = 0; round < n; ++round) {
    bool changed = false;
    for (const Edge& edge : picture.edges) {
      if (placed[edge.to].layer < placed[edge.from].layer + 1 &&
          placed[edge.from].layer + 1 < static_cast<int>(n)) {
        placed[edge.to].layer = placed[edge.from].layer + 1;
        changed = true;
      }
    }
    if (!changed) break;
  }
  int layers = 0;
  for (std::size_t i = 0; i < n; ++i) {
    const Box& box = picture.boxes[i];
    placed[i].width =
        static_cast<double>(std::max(text_columns(box.title), text_columns(box.detail))) * kCharWidth + 16;
    layers = std::max(layers, placed[i].layer + 1);
  }
  width = 0;
  for (int layer = 0; layer < layers; ++layer) {
    std::vector<std::pair<double, int>> wanted;  // desired centre, box
    double packed = kMargin;
    for (std::size_t i = 0; i < n; ++i) {
      if (placed[i].layer != layer) continue;
      double centre = packed + placed[i].width / 2;
      if (!predecessors[i].empty()) {
        centre = 0;
        for (int p : predecessors[i]) centre += placed[p].x + placed[p].width / 2;
        centre /= static_cast<double>(predecessors[i].size());
      }
      packed += placed[i].width + kBoxGap;
      wanted.emplace_back(centre, static_cast<int>(i));
    }
    std::stable_sort(wanted.begin(), wanted.end(),
                     [](const auto& a, const auto& b) { return a.first < b.first; });
    double right = kMargin - kBoxGap;
    for (const auto& [centre, i] : wanted) {
      placed[i].x = std::max(centre - placed[i].width / 2, right + kBoxGap);
      placed[i].y = kTitleHeight + kMargin + layer * (kBoxHeight + kLayerGap);
      right = placed[i].x + placed[i].width;
    }
    width = std::max(width, right + kMargin);
  }
  height = kTitleHeight + kMargin + layers * (kBoxHeight + kLayerGap);
  return placed;
}

std::string_view box_style(BoxKind kind) {
  switch (kind) {
    case BoxKind::kState: return R"(fill="#dbeafe" stroke="#1e3a8a" rx="8")";
    case BoxKind::kNode: return R"(fill="#ffffff" stroke="#374151")";
    case BoxKind::kCollapsed: return R"(fill="#f3f4f6" stroke="#6b7280" stroke-dasharray="4 3")";
    case BoxKind::kOutput: return R"(fill="#fef3c7" stroke="#92400e")";
    case BoxKind::kTarget: return R"(fill="#dcfce7" stroke="#166534" stroke-width="2" rx="8")";
    case BoxKind::kMissing: return R"(fill="#fee2e2" stroke="#991b1b" stroke-dasharray="6 3")";
  }
  return "";
}

std::string_view edge_style(EdgeKind kind) {
  switch (kind) {
    case EdgeKind::kData: return R"(stroke="#6b7280" stroke-width="1.2")";
    case EdgeKind::kWriteBack: return R"(stroke="#1d4ed8" stroke-width="2")";
    case EdgeKind::kWrong: return R"(stroke="#dc2626" stroke-width="3.5")";
    case EdgeKind::kExpected: return R"(stroke="#111827" stroke-width="1.5" stroke-dasharray="7 4")";
  }
  return "";
}

std::string_view edge_class(EdgeKind kind) {
  switch (kind) {
    case EdgeKind::kData: return "data";
    case EdgeKind::kWriteBack: return "write-back";
    case EdgeKind::kWrong: return "wrong";
    case EdgeKind::kExpected: return "expected";
  }
  return "";
}

void write_box(std::ostream& out, const Box& box, const Placed& at) {
  out << fmt::format(R"(<g class="box {}"><rect x="{:.1f}" y="{:.1f}" width="{:.1f}" height="{:.0f}" {}/>)",
                     box.focus ? "focus" : "", at.x, at.y, at.width, kBoxHeight, box_style(box.kind));
  if (box.focus)
    out << fmt::format(R"(<rect x="{:.1f}" y="{:.1f}" width="{:.1f}" height="{:.0f}" fill="none" stroke="#111827" stroke-width="1" rx="10"/>)",
                       at.x - 4, at.y - 4, at.width + 8, kBoxHeight + 8);
  out << fmt::format(R"(<text x="{:.1f}" y="{:.1f}" text-anchor="middle" font-weight="bold">{}</text>)",
                     at.x + at.width / 2, at.y + 15, html::escape(box.title));
  out << fmt::format(R"(<text x="{:.1f}" y="{:.1f}" text-anchor="middle" fill="#374151">{}</text></g>)",
                     at.x + at.width / 2, at.y + 30, html::escape(box.detail));
  out << '\n';
}

// Where an edge runs, and where its label sits: a wrong label nearer its source and an
// expected one nearer its end, so that the two labels of one box do not overlap.
struct EdgeGeometry {
  double x1, y1, x2, y2;
  double label_x, label_y, label_width;
};

EdgeGeometry edge_geometry(const Edge& edge, const Placed& from, const Placed& to) {
  EdgeGeometry g{};
  g.x1 = from.x + from.width / 2;
  g.y1 = from.y + kBoxHeight;
  g.x2 = to.x + to.width / 2;
  g.y2 = to.y - 2;
  // Two edges into the same box from one source (wrong and expected) must not overlap.
  if (edge.kind == EdgeKind::kExpected) g.x2 += std::min(12.0, to.width / 4);
  const double t = edge.kind == EdgeKind::kWrong ? 0.35 : edge.kind == EdgeKind::kExpected ? 0.7 : 0.5;
  g.label_x = g.x1 + (g.x2 - g.x1) * t;
  g.label_y = g.y1 + (g.y2 - g.y1) * t + 4;
  g.label_width = static_cast<double>(text_columns(edge.label)) * kCharWidth + 6;
  return g;
}

void write_edge(std::ostream& out, const Edge& edge, const EdgeGeometry& g, std::string_view prefix) {
  const double bend = std::max(20.0, (g.y2 - g.y1) / 2);
  out << fmt::format(R"svg(<path class="edge {}" d="M{:.1f},{:.1f} C{:.1f},{:.1f} {:.1f},{:.1f} {:.1f},{:.1f}" fill="none" {} marker-end="url(#{}arrow-{})"/>)svg",
                     edge_class(edge.kind), g.x1, g.y1, g.x1, g.y1 + bend, g.x2, g.y2 - bend, g.x2,
                     g.y2, edge_style(edge.kind), prefix, edge_class(edge.kind))
      << '\n';
}

// Labels go on top of every edge and box, kept inside the picture.
void write_edge_label(std::ostream& out, const Edge& edge, const EdgeGeometry& g, double width) {
  if (edge.label.empty()) return;
  const double lx = std::clamp(g.label_x, kMargin + g.label_width / 2,
                               std::max(kMargin + g.label_width / 2, width - kMargin - g.label_width / 2));
  const bool wrong = edge.kind == EdgeKind::kWrong;
  out << fmt::format(R"(<g class="label {}"><rect x="{:.1f}" y="{:.1f}" width="{:.1f}" height="15" fill="#ffffff" opacity="0.92"/>)",
                     edge_class(edge.kind), lx - g.label_width / 2, g.label_y - 11, g.label_width);
  out << fmt::format(R"(<text x="{:.1f}" y="{:.1f}" text-anchor="middle" fill="{}"{}>{}</text></g>)", lx,
                     g.label_y, wrong ? "#b91c1c" : "#111827", wrong ? R"( font-weight="bold")" : "",
                     html::escape(edge.label))
      << '\n';
}

void write_markers(std::ostream& out, std::string_view prefix) {
  out << "<defs>";
  const EdgeKind kinds[] = {EdgeKind::kData, EdgeKind::kWriteBack, EdgeKind::kWrong,
                            EdgeKind::kExpected};
  const char* colours[] = {"#6b7280", "#1d4ed8", "#dc2626", "#111827"};
  for (EdgeKind kind : kinds) {
    out << fmt::format(R"(<marker id="{}arrow-{}" viewBox="0 0 10 10" refX="9" refY="5" markerUnits="userSpaceOnUse" markerWidth="9" markerHeight="9" orient="auto-start-reverse"><path d="M0,0 L10,5 L0,10 z" fill="{}"/></marker>)",
                       prefix, edge_class(kind), colours[static_cast<int>(kind)]);
  }
  out << "</defs>\n";
}

// One line per mark below the picture: its sample and what it means.
double write_legend(std::ostream& out, double top, std::string_view prefix) {
  double y = top + 8;
  out << fmt::format(R"(<text x="{}" y="{:.1f}" font-weight="bold">legend</text>)", kMargin, y + 10) << '\n';
  y += 18;
  const EdgeKind edges[] = {EdgeKind::kData, EdgeKind::kWriteBack, EdgeKind::kWrong,
                            EdgeKind::kExpected};
  for (EdgeKind kind : edges) {
    out << fmt::format(R"svg(<path d="M{},{:.1f} L{},{:.1f}" {} marker-end="url(#{}arrow-{})"/><text x="{}" y="{:.1f}">{}</text>)svg",
                       kMargin, y + 6, kMargin + 48, y + 6, edge_style(kind), prefix,
                       edge_class(kind), kMargin + 58, y + 10, html::escape(edge_kind_words(kind)))
        << '\n';
    y += 16;
  }
  const BoxKind boxes[] = {BoxKind::kState, BoxKind::kNode, BoxKind::kCollapsed,
                           BoxKind::kOutput, BoxKind::kTarget, BoxKind::kMissing};
  for (BoxKind kind : boxes) {
    out << fmt::format(R"(<rect x="{}" y="{:.1f}" width="48" height="12" {}/><text x="{}" y="{:.1f}">{}</text>)",
                       kMargin, y, box_style(kind), kMargin + 58, y + 10,
                       html::escape(box_kind_words(kind)))
        << '\n';
    y += 16;
  }
  return y;
}

}  // namespace

void write_svg(const Picture& picture, std::ostream& out, std::string_view id_prefix,
               bool with_markers) {
  double width = 0, height = 0;
  std::vector<Placed> placed = lay_out(picture, width, height);
  // A picture of a page (no markers of its own) shares the page's one legend.
  const double kLegendHeight = with_markers ? 10 * 16 + 34 : 8;
  std::vector<EdgeGeometry> geometry;
  for (const Edge& edge : picture.edges) {
    geometry.push_back(edge_geometry(edge, placed[edge.from], placed[edge.to]));
    if (!edge.label.empty()) width = std::max(width, geometry.back().label_width + 2 * kMargin);
  }
  width = std::max(width, 420.0);
  const double total = height + kLegendHeight;
  out << fmt::format(R"(<svg xmlns="http://www.w3.org/2000/svg" class="contract" width="{:.0f}" height="{:.0f}" viewBox="0 0 {:.0f} {:.0f}" font-family="DejaVu Sans Mono, monospace" font-size="11" role="img">)",
                     width, total, width, total)
      << '\n';
  out << "<title>" << html::escape(picture.title) << "</title>\n";
  if (with_markers) write_markers(out, id_prefix);
  out << fmt::format(R"(<rect width="100%" height="100%" fill="#ffffff"/><text x="{}" y="{}" font-size="12" font-weight="bold">{}</text>)",
                     kMargin, kMargin + 4, html::escape(picture.title))
      << '\n';
  for (std::size_t e = 0; e < picture.edges.size(); ++e) write_edge(out, picture.edges[e], geometry[e], id_prefix);
  for (std::size_t i = 0; i < picture.boxes.size(); ++i) write_box(out, picture.boxes[i], placed[i]);
  for (std::size_t e = 0; e < picture.edges.size(); ++e)
    write_edge_label(out, picture.edges[e], geometry[e], width);
  if (with_markers) write_legend(out, height, id_prefix);
  out << "</svg>\n";
}

std::string svg_legend(std::string_view id_prefix) {
  std::ostringstream body;
  const double height = write_legend(body, -8, id_prefix) + 4;
  std::ostringstream out;
  out << fmt::format(R"(<svg xmlns="http://www.w3.org/2000/svg" class="legend" width="420" height="{0:.0f}" viewBox="0 0 420 {0:.0f}" font-family="DejaVu Sans Mono, monospace" font-size="11" role="img">)",
                     height)
      << "<title>legend of the pictures</title>\n"
      << body.str() << "</svg>\n";
  return out.str();
}

std::string svg_marker_defs(std::string_view id_prefix) {
  std::ostringstream out;
  out << R"(<svg xmlns="http://www.w3.org/2000/svg" width="0" height="0" style="position:absolute" aria-hidden="true">)";
  write_markers(out, id_prefix);
  out << "</svg>\n";
  return out.str();
}

}  // namespace pt2lint::graph
