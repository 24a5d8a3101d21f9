#include "reports/json_renderer.h"

#include "reports/signature_edit_json.h"
#include "reports/source_location.h"
#include "support/json_writer.h"

namespace pt2lint {

// Only the fields that apply to the edit's op are written.
void write_edit(JsonWriter& json, const SignatureEdit& edit) {
  json.begin_object().field("op", edit_op_name(edit.op));
  if (edit.spec >= 0)
    json.field(edit.op == EditOp::kRenameInput || edit.op == EditOp::kInputKind || edit.op == EditOp::kAddInput
                   ? "input_spec"
                   : "spec",
               edit.spec);
  if (edit.to >= 0) json.field("to", edit.to);
  if (!edit.kind.empty()) json.field("kind", edit.kind);
  if (!edit.target.empty()) json.field("target", edit.target);
  if (!edit.value.empty()) json.field("value", edit.value);
  if (!edit.from.empty()) json.field("from", edit.from);
  if (edit.persistent) json.field("persistent", *edit.persistent);
  json.field("sequence", edit.sequence);
  // Additive: what decided the edit. "safe" edits `pt2lint fix` applies by default; "unsafe" ones
  // (decided by name similarity only) only with --unsafe-fixes. An edit without a recorded proof
  // is unsafe and has no `proof`.
  json.field("safety", safety_word(edit.proof.safe()));
  if (edit.proof.evidence != EditEvidence::kNone) {
    json.field("proof", edit_evidence_name(edit.proof.evidence));
    if (!edit.proof.reason.empty()) json.field("proof_text", edit.proof.reason);
  }
  json.end_object();
}

namespace {

void write_location(JsonWriter& json, const Location& location) {
  json.key("location").begin_object();
  if (location.input_spec) json.field("input_spec", *location.input_spec);
  if (location.output_spec) json.field("output_spec", *location.output_spec);
  if (!location.node.empty()) json.field("node", location.node);
  if (!location.value.empty()) json.field("value", location.value);
  if (!location.json_path.empty()) json.field("json_path", location.json_path);
  if (!location.archive_member.empty()) json.field("archive_member", location.archive_member);
  json.end_object();
}

void write_finding(JsonWriter& json, const Finding& f, const std::string& source_root) {
  json.begin_object();
  json.field("rule", f.rule_id).field("name", f.rule_name);
  json.field("severity", severity_name(f.severity));
  json.field("program", f.program);
  write_location(json, f.location);
  json.field("message", f.message);
  json.key("notes").begin_array();
  for (const Note& note : f.notes) json.value(note.text);
  json.end_array();
  // Additive: the notes that point at a related place (the other spec of a swap, ...), each
  // as its index in `notes` and that place; only on findings that have one.
  if (has_located_note(f)) {
    json.key("note_locations").begin_array();
    for (std::size_t i = 0; i < f.notes.size(); ++i) {
      if (!f.notes[i].location) continue;
      json.begin_object().field("note", i);
      write_location(json, *f.notes[i].location);
      json.end_object();
    }
    json.end_array();
  }
  if (f.fix) {
    json.key("fix").begin_object().field("description", f.fix->description);
    if (!f.fix->replacement.empty()) json.field("replacement", f.fix->replacement);
    if (!f.fix->edits.empty()) {
      json.key("edits").begin_array();
      for (const SignatureEdit& edit : f.fix->edits) write_edit(json, edit);
      json.end_array();
    }
    json.end_object();
  }
  if (!f.root_cause.empty()) json.field("root_cause", f.root_cause);
  if (!f.related.empty()) {
    json.key("related").begin_array();
    for (int i : f.related) json.value(i);
    json.end_array();
  }
  if (f.cause) json.field("cause", *f.cause);
  if (!f.op.empty()) json.field("op", f.op);
  if (!f.state_fqn.empty()) json.field("state", f.state_fqn);
  json.field("baseline", f.baselined);
  // The user's line that made the node (its stack trace's innermost user frame).
  if (std::optional<StackFrame> frame = f.stack_trace.empty() ? std::nullopt
                                                             : user_frame(f.stack_trace, source_root)) {
    json.key("source").begin_object().field("file", frame->file).field("line", frame->line);
    if (!frame->function.empty()) json.field("function", frame->function);
    if (!frame->code.empty()) json.field("code", frame->code);
    json.end_object();
  }
  json.end_object();
}

void write_program(JsonWriter& json, const ProgramSummary& program) {
  json.begin_object();
  json.field("name", program.name).field("dialect", program.dialect);
  json.field("schema_version", program.schema_version).field("layout", program.layout);
  json.field("structure_sound", program.structure_sound);
  json.key("mutations").begin_array();
  for (const MutationSummary& m : program.mutations) {
    json.begin_object().field("target", m.target).field("kind", state_kind_name(m.kind));
    json.string_array("nodes", m.nodes);
    // Only for state with other names: the key is additive.
    if (!m.aliases.empty()) json.string_array("aliases", m.aliases);
    if (!m.initial_value.empty()) json.field("initial_value", m.initial_value);  // additive
    json.end_object();
  }
  json.end_array();
  // Additive: state passed to ops of unknown schema, which may write it (PT310).
  json.key("possible_mutations").begin_array();
  for (const MutationSummary& m : program.possible_mutations) {
    json.begin_object().field("target", m.target).field("kind", state_kind_name(m.kind));
    json.string_array("nodes", m.nodes).string_array("ops", m.ops).end_object();
  }
  json.end_array();
  json.end_object();
}

}  // namespace

void JsonRenderer::render(const RunReport& report, const RenderOptions& options,
                          std::ostream& out) const {
  JsonWriter json(out, /*pretty=*/true);
  json.begin_object();
  json.key("tool").begin_object().field("name", "pt2lint").field("version", PT2LINT_VERSION);
  json.end_object();
  json.key("files").begin_array();
  for (const FileResult& file : report.files) {
    json.begin_object().field("path", file.path);
    json.key("programs").begin_array();
    for (const ProgramSummary& program : file.programs) write_program(json, program);
    json.end_array();
    json.key("findings").begin_array();
    for (const Finding& f : file.findings) write_finding(json, f, options.source_root);
    json.end_array();
    json.end_object();
  }
  json.end_array();
  ReportCounts counts = count_findings(report);
  json.key("summary").begin_object();
  json.field("files", counts.files).field("errors", counts.errors);
  json.field("warnings", counts.warnings).field("notes", counts.notes);
  // The counts above include the baselined findings; `new` + `baselined` add up to them.
  json.key("new").begin_object().field("errors", counts.errors - counts.baselined_errors);
  json.field("warnings", counts.warnings - counts.baselined_warnings);
  json.field("notes", counts.notes - counts.baselined_notes).end_object();
  json.key("baselined").begin_object().field("errors", counts.baselined_errors);
  json.field("warnings", counts.baselined_warnings).field("notes", counts.baselined_notes);
  json.end_object();
  json.end_object();
  json.end_object();
  out << '\n';
}

}  // namespace pt2lint
