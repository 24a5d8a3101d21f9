#include "reports/renderer.h"

#include <fmt/format.h>

#include "reports/github_renderer.h"
#include "reports/gitlab_renderer.h"
#include "reports/html_renderer.h"
#include "reports/json_renderer.h"
#include "reports/junit_renderer.h"
#include "reports/markdown_renderer.h"
#include "reports/rdjson_renderer.h"
#include "reports/sarif_renderer.h"
#include "reports/text_renderer.h"

namespace pt2lint {

ReportCounts count_findings(const RunReport& report) {
  ReportCounts counts;
  counts.files = report.files.size();
  for (const FileResult& file : report.files) {
    for (const Finding& f : file.findings) {
      if (f.baselined) ++counts.baselined;
      if (f.severity == Severity::kError && !f.baselined) ++counts.failing;
      switch (f.severity) {
        case Severity::kError: ++counts.errors; break;
        case Severity::kWarning: ++counts.warnings; break;
        case Severity::kNote: ++counts.notes; break;
      }
    }
  }
  return counts;
}

std::string describe_location(const Location& location) {
  std::string text;
  auto add = [&text](const std::string& part) {
    if (!text.empty()) text += ", ";
    text += part;
  };
  if (location.input_spec) add(fmt::format("input_specs[{}]", *location.input_spec));
  if (location.output_spec) add(fmt::format("output_specs[{}]", *location.output_spec));
  if (!location.node.empty()) add("node " + location.node);
  if (!location.value.empty()) add("value " + location.value);
  if (!location.json_path.empty()) add(location.json_path);
  if (!location.archive_member.empty()) add("member " + location.archive_member);
  return text;
}

std::unique_ptr<Renderer> make_renderer(std::string_view format) {
  if (format == "text") return std::make_unique<TextRenderer>();
  if (format == "json") return std::make_unique<JsonRenderer>();
  if (format == "sarif") return std::make_unique<SarifRenderer>();
  if (format == "github") return std::make_unique<GithubRenderer>();
  if (format == "junit") return std::make_unique<JunitRenderer>();
  if (format == "rdjson") return std::make_unique<RdjsonRenderer>();
  if (format == "gitlab") return std::make_unique<GitlabRenderer>();
  if (format == "markdown") return std::make_unique<MarkdownRenderer>();
  if (format == "html") return std::make_unique<HtmlRenderer>();
  return nullptr;
}

std::vector<std::string_view> renderer_names() {
  return {"text", "json", "sarif", "github", "junit", "rdjson", "gitlab", "markdown", "html"};
}

}  // namespace pt2lint
