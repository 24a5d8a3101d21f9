// A finding is plain data: produced by rules and readers, consumed by renderers.
#pragma once

#include <optional>
#include <string>
#include <string_view>
#include <utility>
#include <vector>

#include "core/signature_edit.h"

namespace pt2lint {

enum class Severity { kNote = 0, kWarning = 1, kError = 2 };

std::string_view severity_name(Severity severity);  // "note", "warning", "error"

// What a format calls each severity, given for note, warning and error in that order: the one
// switch over Severity, for the formats whose vocabulary is not severity_name()'s.
template <typename T>
constexpr T by_severity(Severity severity, T note, T warning, T error) {
  switch (severity) {
    case Severity::kNote: return note;
    case Severity::kWarning: return warning;
    case Severity::kError: return error;
  }
  return error;
}
std::optional<Severity> parse_severity(std::string_view text);

// Where in a program a finding points. Every field is optional; renderers show what is set.
struct Location {
  std::optional<int> input_spec;   // index into graph_module.signature.input_specs
  std::optional<int> output_spec;  // index into graph_module.signature.output_specs
  std::string node;                // FX node name
  std::string value;               // SSA value name
  std::string json_path;           // e.g. graph_module.signature.output_specs[3]
  std::string archive_member;      // zip member the finding is about

  static Location of_input_spec(int index) {
    Location location;
    location.input_spec = index;
    return location;
  }
  static Location of_output_spec(int index) {
    Location location;
    location.output_spec = index;
    return location;
  }

  bool operator==(const Location&) const = default;
};

// One note of a finding: more of why, the fix's reasoning, or a second place that matters, as
// MLIR's attachNote(loc) gives. A note with a location points at that related place (the other
// spec of a swap, the other slot of a pairing); its text still names the place in words, so
// formats without places (text, markdown, ...) print it as before. SARIF writes it as a
// relatedLocation, HTML links it, JSON lists it under `related_locations`.
struct Note {
  std::string text;
  std::optional<Location> location;

  Note() = default;
  Note(std::string note_text) : text(std::move(note_text)) {}  // NOLINT: implicit, a bare note
  Note(const char* note_text) : text(note_text) {}           // NOLINT: implicit, as above
  Note(std::string note_text, Location at) : text(std::move(note_text)), location(std::move(at)) {}

  bool operator==(const Note&) const = default;
};

struct SuggestedFix {
  std::string description;  // what to change, in words
  std::string replacement;  // optional: the JSON/text that should be there instead
  // The repair as data (`fix.edits` in JSON); only on a diagnosis' primary finding.
  std::vector<SignatureEdit> edits;
};

struct Finding {
  std::string rule_id;    // stable short ID, e.g. "PT201"
  std::string rule_name;  // kebab-case name, e.g. "mutation-target-resolves"
  Severity severity = Severity::kError;
  std::string program;    // model name inside the file ("model", "decode", ...)
  Location location;
  std::string message;
  std::vector<Note> notes;
  std::optional<SuggestedFix> fix;
  // Stable identity used by fingerprints and baselines (never a line number).
  std::string op;          // node target, e.g. torch.ops.aten.index_copy_.default
  std::string state_fqn;   // buffer/parameter/constant FQN the finding is about
  std::string stack_trace; // the node's stack_trace metadata, for source locations
  bool baselined = false;
  // Set by the diagnosis pass (src/diagnosis): findings with one root cause are grouped
  // under a primary finding. Indices are positions in the file's finding list.
  std::string root_cause;     // on the primary: the cause's kind ("swap", "pairing", ...)
  std::vector<int> related;   // on the primary: the findings it groups
  std::optional<int> cause;   // on a grouped finding: its primary
  // The finding's slice of the graph in the drawing language of the report format (inline
  // SVG for html, Mermaid for markdown); "" for formats that draw nothing (see docs/graph.md).
  std::string picture;
};

// Whether any note of `finding` points at a related place (Note::location).
inline bool has_located_note(const Finding& finding) {
  for (const Note& note : finding.notes)
    if (note.location) return true;
  return false;
}

}  // namespace pt2lint
