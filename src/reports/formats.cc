#include "reports/formats.h"

#include "reports/concise_renderer.h"
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
namespace {

template <class R>
std::unique_ptr<Renderer> make_format_renderer() {
  return std::make_unique<R>();
}

using graph::PictureLanguage;

// Each format's name next to its renderer and traits, so that the names `--format` accepts,
// the renderers that exist and what the commands do with each cannot drift apart.
constexpr ReportFormat kReportFormats[] = {
    {.name = "text", .make = make_format_renderer<TextRenderer>, .colour = true, .statistics = true,
     .quiet = true, .notes_on_stdout = true, .log_lines = true},
    {.name = "concise", .make = make_format_renderer<ConciseRenderer>, .colour = true,
     .statistics = true, .quiet = true},
    {.name = "json", .make = make_format_renderer<JsonRenderer>, .json = true},
    {.name = "sarif", .make = make_format_renderer<SarifRenderer>, .json = true},
    {.name = "github", .make = make_format_renderer<GithubRenderer>, .step_summary = true,
     .log_lines = true, .workflow_commands = true},
    {.name = "junit", .make = make_format_renderer<JunitRenderer>},
    {.name = "rdjson", .make = make_format_renderer<RdjsonRenderer>, .json = true},
    {.name = "gitlab", .make = make_format_renderer<GitlabRenderer>, .json = true},
    {.name = "markdown", .make = make_format_renderer<MarkdownRenderer>,
     .pictures = PictureLanguage::kMermaid, .log_lines = true},
    {.name = "html", .make = make_format_renderer<HtmlRenderer>, .pictures = PictureLanguage::kSvg,
     .diff_page = true},
};

}  // namespace

std::span<const ReportFormat> report_formats() { return kReportFormats; }

const ReportFormat* find_format(std::string_view name) {
  for (const ReportFormat& format : kReportFormats)
    if (format.name == name) return &format;
  return nullptr;
}

std::unique_ptr<Renderer> make_renderer(std::string_view name) {
  const ReportFormat* format = find_format(name);
  return format == nullptr ? nullptr : format->make();
}

std::vector<std::string> format_names() {
  std::vector<std::string> names;
  for (const ReportFormat& format : kReportFormats) names.emplace_back(format.name);
  return names;
}

}  // namespace pt2lint
