// Writers of a contract picture: Graphviz DOT text (no Graphviz needed to write it), a
// self-laid-out SVG (no Graphviz at all, see docs/graph.md), and a Mermaid flowchart for
// Markdown that GitHub renders.
#pragma once

#include <ostream>
#include <string>
#include <string_view>

#include "reports/graph/contract_picture.h"

namespace pt2lint::graph {

void write_dot(const Picture& picture, std::ostream& out);

// `id_prefix` starts the ids of the arrow markers. SVGs inlined in one HTML page leave the
// markers out (`with_markers` false) and share the ones of svg_marker_defs(id_prefix).
// Pictures of a page leave out the markers and the legend and share the page's.
void write_svg(const Picture& picture, std::ostream& out, std::string_view id_prefix = "",
               bool with_markers = true);
// A hidden <svg> holding only the arrow markers, for a page of many pictures.
std::string svg_marker_defs(std::string_view id_prefix);
// The legend alone, as one <svg> (it uses the markers of svg_marker_defs(id_prefix)): a page
// of many pictures shows it once.
std::string svg_legend(std::string_view id_prefix);

// A ```mermaid fenced block.
void write_mermaid(const Picture& picture, std::ostream& out);

// The words a legend gives each mark; shared by the writers so the pictures agree.
std::string_view box_kind_words(BoxKind kind);
std::string_view edge_kind_words(EdgeKind kind);

}  // namespace pt2lint::graph
