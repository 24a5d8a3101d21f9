#include "reports/rdjson_renderer.h"

#include "reports/finding_anchor.h"
#include "reports/review_text.h"
#include "support/json_writer.h"

namespace pt2lint {
namespace {

// reviewdog's Diagnostic Format spells severities ERROR, WARNING and INFO.
std::string_view rd_severity(Severity severity) {
  return by_severity<std::string_view>(severity, "INFO", "WARNING", "ERROR");
}

void write_diagnostic(JsonWriter& json, const FileResult& file, const Finding& f,
                      const RenderOptions& options) {
  FindingAnchor anchor = review_anchor(file, f, options);
  json.begin_object();
  std::string message = review_message(file, f, "\n");
  if (anchor.source) message += "\n(" + anchor.artifact + (f.program.empty() ? "" : ", program " + f.program) + ")";
  json.field("message", message);
  json.key("location").begin_object();
  if (anchor.source) {
    json.field("path", anchor.source->path);
    // Line-only range: reviewdog treats it as the whole line.
    json.key("range").begin_object().key("start").begin_object();
    json.field("line", anchor.source->line).end_object().end_object();
  } else {
    // No range: a .pt2 has no lines, and reviewdog then comments on the file.
    json.field("path", anchor.artifact);
  }
  json.end_object();
  json.field("severity", rd_severity(f.severity));
  json.key("code").begin_object().field("value", f.rule_id);
  if (std::string url = rule_help_uri(options.docs_url, f.rule_name); !url.empty()) json.field("url", url);
  json.end_object();
  // The findings this root cause explains, each where its own diagnostic points.
  if (!f.related.empty()) {
    json.key("related_locations").begin_array();
    for (int i : f.related) {
      const Finding& grouped = file.findings[i];
      FindingAnchor where = review_anchor(file, grouped, options);
      json.begin_object();
      json.field("message", "[" + grouped.rule_id + " " + grouped.rule_name + "] " + grouped.message);
      json.key("location").begin_object();
      json.field("path", where.source ? where.source->path : where.artifact);
      if (where.source) {
        json.key("range").begin_object().key("start").begin_object();
        json.field("line", where.source->line).end_object().end_object();
      }
      json.end_object().end_object();
    }
    json.end_array();
  }
  json.end_object();
}

}  // namespace

void RdjsonRenderer::render(const RunReport& report, const RenderOptions& options,
                            std::ostream& out) const {
  JsonWriter json(out, /*pretty=*/true);
  json.begin_object();
  json.key("source").begin_object().field("name", "pt2lint");
  if (!options.docs_url.empty()) json.field("url", options.docs_url);
  json.end_object();
  json.key("diagnostics").begin_array();
  for (const FileResult& file : report.files)
    for (const Finding& f : file.findings) write_diagnostic(json, file, f, options);
  json.end_array();
  json.end_object();
  out << '\n';
}

}  // namespace pt2lint
