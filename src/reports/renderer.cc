#include "reports/renderer.h"

#include <fmt/format.h>

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

namespace {

// Each format's name next to its renderer, so that the names `--format` accepts and the
// renderers that exist cannot drift apart.
template <class R>
std::unique_ptr<Renderer> make() {
  return std::make_unique<R>();
}
struct Format {
  std::string_view name;
  std::unique_ptr<Renderer> (*make)();
  bool json;  // the output is one JSON document
};
constexpr Format kFormats[] = {
    {"text", make<TextRenderer>, false},     {"concise", make<ConciseRenderer>, false},
    {"json", make<JsonRenderer>, true},
    {"sarif", make<SarifRenderer>, true},    {"github", make<GithubRenderer>, false},
    {"junit", make<JunitRenderer>, false},   {"rdjson", make<RdjsonRenderer>, true},
    {"gitlab", make<GitlabRenderer>, true},  {"markdown", make<MarkdownRenderer>, false},
    {"html", make<HtmlRenderer>, false},
};

}  // namespace

std::unique_ptr<Renderer> make_renderer(std::string_view format) {
  for (const Format& f : kFormats)
    if (f.name == format) return f.make();
  return nullptr;
}

bool renders_json(std::string_view format) {
  for (const Format& f : kFormats)
    if (f.name == format) return f.json;
  return false;
}

std::vector<std::string_view> renderer_names() {
  std::vector<std::string_view> names;
  for (const Format& f : kFormats) names.push_back(f.name);
  return names;
}

}  // namespace pt2lint
