// Where a finding is shown in formats that need a file and a line: the Python source line
// from its stack trace when that lies in the user's tree, else the checked file itself.
#pragma once

#include <optional>
#include <string>
#include <string_view>

#include "engine/engine.h"
#include "reports/renderer.h"
#include "reports/source_location.h"

namespace pt2lint {

// `<docs_url><rule-name>.md`, the page of a rule under the `docs-url` of the config; "" when
// no docs-url is set: pt2lint has no public home to link to, so formats then leave the link
// out rather than point at a made-up address (docs/configuration.md).
std::string rule_help_uri(std::string_view docs_url, std::string_view rule_name);

struct FindingAnchor {
  std::optional<SourceLocation> source;  // set when the stack trace reaches the source root
  std::string artifact;                  // the checked file, relative to the root when under it
};

FindingAnchor anchor_finding(const FileResult& file, const Finding& finding,
                             std::string_view source_root);

// Where a review format (an annotation, a SARIF result, a reviewdog diagnostic, a Code
// Quality issue) puts a finding: anchor_finding, but at the checked file instead of a source
// line that `options.changed_files` leaves out. Reports for a reader (markdown, text) show the
// source line regardless.
FindingAnchor review_anchor(const FileResult& file, const Finding& finding,
                            const RenderOptions& options);

// The checked file's path as reports print it: relative to `source_root` when it lies under
// it, else as given, '/' separated and without a leading "./".
std::string artifact_path(const std::string& path, std::string_view source_root);

// `path` as a URI reference (RFC 3986): '/' kept, bytes outside the unreserved set
// percent-encoded, so "kv cache.pt2" becomes "kv%20cache.pt2".
std::string uri_reference(std::string_view path);

// The message, then each note as "note: ...", joined by `note_separator`.
std::string message_with_notes(const Finding& finding, std::string_view note_separator);

}  // namespace pt2lint
