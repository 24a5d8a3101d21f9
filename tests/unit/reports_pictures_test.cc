// Pictures in reports: the html format, Mermaid pictures in markdown, and `docs-url` (no made-up links).
#include <gtest/gtest.h>

#include <sstream>

#include "engine/config/config_parser.h"
#include "reports/graph/contract_picture.h"
#include "reports/graph/picture_writers.h"
#include "reports/formats.h"

namespace pt2lint {
namespace {

const RuleInfo kTarget{"PT204", "mutation-target-resolves", Severity::kError,
                       RulePhase::kStructural, "a mutation output names state that exists"};

RunReport one_finding(std::string picture) {
  Finding f;
  f.rule_id = "PT204";
  f.rule_name = "mutation-target-resolves";
  f.program = "model";
  f.location.output_spec = 0;
  f.message = "output_specs[0] names `lifted_buf_k` <script>alert(1)</script>";
  f.notes = {"did you mean `layers.0.k`?"};
  f.fix = SuggestedFix{"set the target to `layers.0.k`", ""};
  f.picture = std::move(picture);
  FileResult file;
  file.path = "models/kv.pt2";
  ProgramSummary program;
  program.name = "model";
  program.mutations = {{"layers.0.k", StateKind::kBuffer, {"index_put"}}};
  file.programs.push_back(std::move(program));
  file.findings.push_back(std::move(f));
  RunReport report;
  report.files.push_back(std::move(file));
  return report;
}

std::string render_with_docs_url(std::string_view format, const RunReport& report, std::string docs_url = "") {
  RuleRegistry registry;
  registry.add_reported_elsewhere(kTarget);
  RenderOptions options;
  options.registry = &registry;
  options.docs_url = std::move(docs_url);
  std::ostringstream out;
  make_renderer(format)->render(report, options, out);
  return out.str();
}

TEST(DocsUrl, UnsetLeavesEveryRuleLinkOut) {
  RunReport report = one_finding("");
  for (std::string_view format : {"sarif", "rdjson", "markdown", "html"}) {
    std::string text = render_with_docs_url(format, report);
    EXPECT_EQ(text.find("github.com/pt2lint"), std::string::npos) << format;
    EXPECT_EQ(text.find("mutation-target-resolves.md"), std::string::npos) << format;
  }
  EXPECT_EQ(render_with_docs_url("sarif", report).find("helpUri"), std::string::npos);
  EXPECT_EQ(render_with_docs_url("sarif", report).find("informationUri"), std::string::npos);
}

TEST(DocsUrl, SetLinksEachRuleToItsPage) {
  RunReport report = one_finding("");
  // Only http and https docs URLs are links (issue 24: no javascript: or relative tricks).
  const std::string base = "https://example.org/docs/rules/";
  const std::string page = base + "mutation-target-resolves.md";
  EXPECT_NE(render_with_docs_url("sarif", report, base).find("\"helpUri\": \"" + page + "\""), std::string::npos);
  EXPECT_NE(render_with_docs_url("rdjson", report, base).find("\"url\": \"" + page + "\""), std::string::npos);
  EXPECT_NE(render_with_docs_url("markdown", report, base).find("](" + page + ")"), std::string::npos);
  EXPECT_NE(render_with_docs_url("html", report, base).find("href=\"" + page + "\""), std::string::npos);
}

TEST(DocsUrl, ConfigKeyIsReadAndEndsInASlash) {
  RuleRegistry registry;
  Expected<Config> config =
      parse_config("docs-url = \"https://example.org/pt2lint/docs/rules\"\n", ".pt2lint.toml", registry);
  ASSERT_TRUE(config.ok()) << config.message();
  EXPECT_EQ(config->docs_url, "https://example.org/pt2lint/docs/rules/");
  Expected<Config> bad = parse_config("docs-url = 3\n", ".pt2lint.toml", registry);
  EXPECT_FALSE(bad.ok());
  EXPECT_NE(bad.message().find("docs-url"), std::string::npos);
}

TEST(HtmlReport, IsSelfContainedEscapedAndShowsEachFindingWithItsPicture) {
  std::string html = render_with_docs_url("html", one_finding("<svg class=\"contract\"><g class=\"box\"></g></svg>"));
  // No network: nothing is fetched, no script or style comes from elsewhere.
  EXPECT_EQ(html.find("src="), std::string::npos);
  EXPECT_EQ(html.find("<link"), std::string::npos);
  EXPECT_EQ(html.find("href=\"http"), std::string::npos);
  // Text from the program is escaped; the picture is inlined as it is.
  EXPECT_EQ(html.find("<script>alert"), std::string::npos);
  EXPECT_NE(html.find("&lt;script&gt;alert(1)&lt;/script&gt;"), std::string::npos);
  EXPECT_NE(html.find("<code>lifted_buf_k</code>"), std::string::npos);
  EXPECT_NE(html.find("data-rule=\"PT204\" data-severity=\"error\""), std::string::npos);
  EXPECT_NE(html.find("<div class=\"picture\"><svg class=\"contract\">"), std::string::npos);
  EXPECT_NE(html.find("set the target to <code>layers.0.k</code>"), std::string::npos);
  // The effective mutation set and the filters.
  EXPECT_NE(html.find("<code>layers.0.k</code></td><td>buffer</td><td><code>index_put</code>"),
            std::string::npos);
  EXPECT_NE(html.find("data-filter=\"rule\" value=\"PT204\""), std::string::npos);
}

TEST(MarkdownReport, EmbedsTheMermaidPictureOfEachFinding) {
  std::string markdown = render_with_docs_url("markdown", one_finding("```mermaid\nflowchart TD\n  o0 ==> m0\n```\n"));
  EXPECT_NE(markdown.find("### Pictures"), std::string::npos);
  EXPECT_NE(markdown.find("```mermaid\nflowchart TD"), std::string::npos);
  EXPECT_NE(markdown.find("(finding 1)"), std::string::npos);
  EXPECT_EQ(render_with_docs_url("markdown", one_finding("")).find("### Pictures"), std::string::npos);
}

TEST(PictureWriters, WrongEdgeIsRedBoldAndLabelledInEveryLanguage) {
  graph::Picture picture;
  picture.title = "t";
  picture.boxes = {{"o0", graph::BoxKind::kOutput, "output_specs[0]", "buffer_mutation → a", true},
                   {"t1", graph::BoxKind::kTarget, "a", "buffer after the run", false},
                   {"t2", graph::BoxKind::kTarget, "b \"quoted\" <x>", "buffer after the run", false}};
  picture.edges = {{0, 1, graph::EdgeKind::kWrong, "✗ writes the update of `b`"},
                   {0, 2, graph::EdgeKind::kExpected, "expected target"}};
  std::ostringstream dot, svg, mermaid;
  graph::write_dot(picture, dot);
  graph::write_svg(picture, svg);
  graph::write_mermaid(picture, mermaid);
  EXPECT_NE(dot.str().find("o0 -> t1 [color=\"#dc2626\", fontcolor=\"#dc2626\", penwidth=3, style=bold"),
            std::string::npos);
  EXPECT_NE(dot.str().find("label=\"✗ writes the update of `b`\""), std::string::npos);
  EXPECT_NE(dot.str().find("o0 -> t2 [color=\"#111827\", style=dashed"), std::string::npos);
  EXPECT_NE(dot.str().find("b \\\"quoted\\\" <x>"), std::string::npos);
  EXPECT_NE(dot.str().find("cluster_legend"), std::string::npos);
  EXPECT_NE(svg.str().find("class=\"edge wrong\""), std::string::npos);
  EXPECT_NE(svg.str().find("stroke-dasharray=\"7 4\""), std::string::npos);
  EXPECT_NE(svg.str().find("b &quot;quoted&quot; &lt;x&gt;"), std::string::npos);
  EXPECT_NE(svg.str().find(">legend<"), std::string::npos);
  EXPECT_NE(mermaid.str().find("o0 ==>|\"✗ writes the update of 'b'\"| t1"), std::string::npos);
  EXPECT_NE(mermaid.str().find("o0 -.->|\"expected target\"| t2"), std::string::npos);
  EXPECT_NE(mermaid.str().find("linkStyle 0 stroke:#dc2626"), std::string::npos);
}

}  // namespace
}  // namespace pt2lint
