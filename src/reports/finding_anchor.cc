#include "reports/finding_anchor.h"

#include "engine/baseline/fingerprint.h"
#include "support/http_url.h"

namespace pt2lint {

std::string rule_help_uri(std::string_view docs_url, std::string_view rule_name) {
  if (docs_url.empty()) return {};
  // Only an http or https page: a config from a pull request must not plant javascript: links.
  return safe_link_target(std::string(docs_url) + std::string(rule_name) + ".md");
}

std::string artifact_path(const std::string& path, std::string_view source_root) {
  if (!source_root.empty() && !path.empty() && path.front() == '/') {
    if (auto relative = relative_to_root(path, source_root)) return *relative;
  }
  return fingerprint_path(path);
}

FindingAnchor anchor_finding(const FileResult& file, const Finding& finding,
                             std::string_view source_root) {
  FindingAnchor anchor;
  anchor.artifact = artifact_path(file.path, source_root);
  if (!finding.stack_trace.empty())
    anchor.source = user_source_location(finding.stack_trace, source_root);
  return anchor;
}

FindingAnchor review_anchor(const FileResult& file, const Finding& finding,
                            const RenderOptions& options) {
  FindingAnchor anchor = anchor_finding(file, finding, options.source_root);
  if (anchor.source && options.changed_files && !options.changed_files->contains(anchor.source->path))
    anchor.source.reset();
  return anchor;
}

std::string uri_reference(std::string_view path) {
  static constexpr char kHex[] = "0123456789ABCDEF";
  std::string uri;
  for (unsigned char c : path) {
    bool keep = (c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z') || (c >= '0' && c <= '9') ||
                c == '-' || c == '.' || c == '_' || c == '~' || c == '/';
    if (keep) {
      uri += static_cast<char>(c);
    } else {
      uri += '%';
      uri += kHex[c >> 4];
      uri += kHex[c & 0xF];
    }
  }
  return uri;
}

std::string message_with_notes(const Finding& finding, std::string_view note_separator) {
  std::string text = finding.message;
  for (const Note& note : finding.notes) {
    text += note_separator;
    text += "note: ";
    text += note.text;
  }
  return text;
}

}  // namespace pt2lint
