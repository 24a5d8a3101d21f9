#include "reports/gitlab_renderer.h"

#include "engine/baseline/fingerprint.h"
#include "reports/finding_anchor.h"
#include "reports/review_text.h"
#include "support/json_writer.h"

namespace pt2lint {
namespace {

// Code Quality severities are info|minor|major|critical|blocker; ruff reports its errors
// as "major", and so do we, keeping critical/blocker for nothing a linter decides alone.
std::string_view code_quality_severity(Severity severity) {
  return by_severity<std::string_view>(severity, "info", "minor", "major");
}

}  // namespace

void GitlabRenderer::render(const RunReport& report, const RenderOptions& options,
                            std::ostream& out) const {
  JsonWriter json(out, /*pretty=*/true);
  json.begin_array();
  for (const FileResult& file : report.files) {
    std::vector<std::string> prints = file_fingerprints(file);
    for (std::size_t i = 0; i < file.findings.size(); ++i) {
      const Finding& f = file.findings[i];
      FindingAnchor anchor = review_anchor(file, f, options);
      std::string description = review_message(file, f, " ");
      if (!f.program.empty()) description = f.program + ": " + description;
      json.begin_object();
      json.field("type", "issue");
      json.field("description", "[" + f.rule_id + " " + f.rule_name + "] " + description);
      json.field("check_name", f.rule_id);
      json.field("fingerprint", prints[i]);
      json.field("severity", code_quality_severity(f.severity));
      json.key("location").begin_object();
      json.field("path", anchor.source ? anchor.source->path : anchor.artifact);
      json.key("lines").begin_object();
      json.field("begin", anchor.source ? anchor.source->line : 1).end_object();
      json.end_object();
      json.end_object();
    }
  }
  json.end_array();
  out << '\n';
}

}  // namespace pt2lint
