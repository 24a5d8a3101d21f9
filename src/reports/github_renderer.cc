#include "reports/github_renderer.h"

#include <algorithm>
#include <fstream>

#include "reports/escape/text_escape.h"
#include "reports/finding_anchor.h"
#include "reports/markdown_summary.h"
#include "reports/review_text.h"

namespace pt2lint {
namespace {

// Escaping as actions/toolkit's command.ts does it: data escapes %, CR and LF; property
// values also ':' and ',', which would otherwise end the value.
// Other controls are made visible first (reports/escape/text_escape.h): a file's names must not
// reach the log as ANSI sequences or NULs.
std::string escape_data(std::string_view text) {
  std::string escaped;
  for (char c : inert_text(text, Newlines::kKeep)) {
    switch (c) {
      case '%': escaped += "%25"; break;
      case '\r': escaped += "%0D"; break;
      case '\n': escaped += "%0A"; break;
      default: escaped += c;
    }
  }
  return escaped;
}

std::string escape_property(std::string_view text) {
  std::string escaped;
  for (char c : escape_data(text)) {
    switch (c) {
      case ':': escaped += "%3A"; break;
      case ',': escaped += "%2C"; break;
      default: escaped += c;
    }
  }
  return escaped;
}

// GitHub's workflow commands are ::error, ::warning and ::notice.
std::string_view command(Severity severity) {
  return by_severity<std::string_view>(severity, "notice", "warning", "error");
}

struct Annotation {
  const FileResult* file;
  const Finding* finding;
};

}  // namespace

void GithubRenderer::render(const RunReport& report, const RenderOptions& options,
                            std::ostream& out) const {
  // One annotation per root cause (grouped findings are named in their primary's text),
  // new findings first, the most severe first, and otherwise in report order; GitHub shows
  // only kMaxAnnotationsPerLevel of each level per step, so the rest are counted in one
  // plain log line and listed in the step summary.
  std::vector<Annotation> annotations;
  for (const FileResult& file : report.files)
    for (const Finding& f : file.findings)
      if (shown_once_per_cause(f)) annotations.push_back({&file, &f});
  std::stable_sort(annotations.begin(), annotations.end(),
                   [](const Annotation& a, const Annotation& b) {
                     if (a.finding->baselined != b.finding->baselined) return !a.finding->baselined;
                     return a.finding->severity > b.finding->severity;
                   });
  std::size_t per_level[3] = {0, 0, 0};
  std::size_t left_out = 0;
  for (const Annotation& a : annotations) {
    const Finding& f = *a.finding;
    std::size_t& used = per_level[static_cast<int>(f.severity)];
    if (used == kMaxAnnotationsPerLevel) {
      ++left_out;
      continue;
    }
    ++used;
    FindingAnchor anchor = review_anchor(*a.file, f, options);
    std::string title = "pt2lint (" + f.rule_id + " " + f.rule_name + ")";
    if (f.baselined) title += " [baseline]";
    out << "::" << command(f.severity) << " title=" << escape_property(title);
    if (anchor.source) {
      out << ",file=" << escape_property(anchor.source->path)
          << ",line=" << anchor.source->line;
    } else {
      // A .pt2 has no lines to point at: the annotation is attached to the file as a whole.
      out << ",file=" << escape_property(anchor.artifact);
    }
    std::string text = anchor.artifact + (f.program.empty() ? "" : ":" + f.program) + ": " +
                       review_message(*a.file, f, "\n");
    out << "::" << escape_data(text) << '\n';
  }
  if (left_out > 0) {
    out << "pt2lint: " << left_out << " more root causes are not annotated (GitHub shows "
        << kMaxAnnotationsPerLevel << " annotations of each level per step)";
    out << (options.step_summary_path.empty() ? "; run with $GITHUB_STEP_SUMMARY set to list them\n"
                                              : "; the job summary lists them\n");
  }
}

Status append_step_summary(const RunReport& report, const RenderOptions& options,
                           const std::string& path) {
  std::ofstream summary(path, std::ios::app);
  if (summary) write_markdown_report(report, options, summary);
  summary.close();
  if (!summary)
    return Status::error("cannot append the job summary to $GITHUB_STEP_SUMMARY '" + path + "'");
  return Status();
}

}  // namespace pt2lint
