#include "reports/sarif_renderer.h"

#include <algorithm>
#include <map>

#include "engine/baseline/fingerprint.h"
#include "reports/finding_anchor.h"
#include "reports/review_text.h"
#include "reports/signature_edit_json.h"
#include "support/json_writer.h"

namespace pt2lint {
namespace {

// GitHub rejects descriptions over 1024 characters.
constexpr std::size_t kMaxDescription = 1024;

std::string clip(std::string_view text) {
  if (text.size() <= kMaxDescription) return std::string(text);
  return std::string(text.substr(0, kMaxDescription - 3)) + "...";
}

// The first paragraph of a rule page after its title: a rule's full description.
std::string first_paragraph(std::string_view page) {
  std::string paragraph;
  std::size_t pos = 0;
  while (pos < page.size()) {
    std::size_t end = page.find('\n', pos);
    if (end == std::string_view::npos) end = page.size();
    std::string_view line = page.substr(pos, end - pos);
    pos = end + 1;
    if (line.empty() || line.front() == '#') {
      if (!paragraph.empty()) break;
      continue;
    }
    if (!paragraph.empty()) paragraph += ' ';
    paragraph += line;
  }
  return paragraph;
}

// Every rule that could fire, sorted by ID, so ruleIndex does not move between runs.
std::vector<const RuleInfo*> sorted_rules(const RuleRegistry* registry) {
  std::vector<const RuleInfo*> rules;
  if (registry != nullptr) rules = registry->all();
  std::sort(rules.begin(), rules.end(),
            [](const RuleInfo* a, const RuleInfo* b) { return a->id < b->id; });
  return rules;
}

void write_rule(JsonWriter& json, const RuleInfo& rule, const RenderOptions& options) {
  std::string_view page = options.rule_doc ? options.rule_doc(rule.name) : std::string_view();
  std::string uri = rule_help_uri(options.docs_url, rule.name);
  std::string full = first_paragraph(page);
  json.begin_object();
  json.field("id", rule.id).field("name", rule.name);
  json.key("shortDescription").begin_object().field("text", clip(rule.summary)).end_object();
  json.key("fullDescription").begin_object();
  json.field("text", clip(full.empty() ? rule.summary : std::string_view(full)));
  json.end_object();
  json.key("help").begin_object();
  json.field("text", std::string(rule.summary) + (uri.empty() ? "." : ". See " + uri));
  json.field("markdown", page.empty() ? std::string(rule.summary) : std::string(page));
  json.end_object();
  if (!uri.empty()) json.field("helpUri", uri);
  json.key("defaultConfiguration").begin_object();
  json.field("level", severity_name(rule.default_severity));
  // Opt-in rules run only when selected (pt2lint rules shows which).
  if (!rule.default_enabled) json.field("enabled", false);
  json.end_object();
  json.key("properties").begin_object();
  json.key("tags").begin_array().value(phase_name(rule.phase)).end_array();
  json.field("problem.severity", rule.default_severity == Severity::kNote
                                     ? std::string_view("recommendation")
                                     : severity_name(rule.default_severity));
  json.end_object();
  json.end_object();
}

void write_region(JsonWriter& json, int line, std::size_t code_length) {
  json.key("region").begin_object().field("startLine", line).field("startColumn", 1);
  // Python's traceback strips the line's indentation, so the end column is a lower bound.
  if (code_length > 0) json.field("endLine", line).field("endColumn", code_length + 1);
  json.end_object();
}

void write_artifact_location(JsonWriter& json, const std::string& uri, int line) {
  json.key("physicalLocation").begin_object();
  json.key("artifactLocation").begin_object().field("uri", uri_reference(uri)).end_object();
  write_region(json, line, 0);
  json.end_object();
}

// "<file>::<program>::<node>": survives re-exports better than a line, and names the node.
void write_logical_locations(JsonWriter& json, const std::string& artifact, const Finding& f) {
  if (f.program.empty() && f.location.node.empty()) return;
  json.key("logicalLocations").begin_array().begin_object();
  std::string qualified = artifact + "::" + f.program;
  if (f.location.node.empty()) {
    json.field("name", f.program).field("fullyQualifiedName", qualified).field("kind", "module");
  } else {
    json.field("name", f.location.node);
    json.field("fullyQualifiedName", qualified + "::" + f.location.node);
    if (!f.op.empty()) json.field("decoratedName", f.op);
    json.field("kind", "function");
  }
  json.end_object().end_array();
}

// The related place of a note (Note::location), named as a finding's own place is: the node
// as a function, or a spec ("output_specs[3]") as a member of the program.
void write_note_location(JsonWriter& json, const std::string& artifact, const Finding& f,
                         const Location& at) {
  const std::string qualified = artifact + "::" + f.program;
  const bool node = !at.node.empty();
  const std::string name = node ? at.node : describe_location(at);
  json.key("logicalLocations").begin_array().begin_object();
  json.field("name", name).field("fullyQualifiedName", qualified + "::" + name);
  json.field("kind", node ? "function" : "member");
  json.end_object().end_array();
}

// The repair `pt2lint fix` applies, for findings whose diagnosis proved one (fix.edits).
// A .pt2 is a zip whose program JSON is usually compressed, so no byte range of the file
// can be replaced honestly: the one replacement SARIF requires is empty (it changes
// nothing), the edits travel as data in the fix's properties (the objects of the JSON
// report's fix.edits, each with its safety and proof), and the description names the command
// that applies them and labels each edit. A fix with an unsafe edit (name similarity only) is
// unsafe as a whole: its command carries --unsafe-fixes, without which `fix` refuses it.
void write_fix(JsonWriter& json, const std::string& artifact, const SuggestedFix& fix) {
  const bool safe = std::all_of(fix.edits.begin(), fix.edits.end(),
                                [](const SignatureEdit& edit) { return edit.proof.safe(); });
  std::string command = "pt2lint fix " + artifact + " -o " + artifact + (safe ? "" : " --unsafe-fixes");
  std::string text = fix.description + "\nThe edits, which `" + command + "` applies" +
                     (safe ? " (safe: every edit is proven)"
                           : " (unsafe: an edit is decided by name similarity only, not proven)") +
                     ":";
  for (const SignatureEdit& edit : fix.edits) {
    text += "\n- " + describe_edit(edit) + " [" + std::string(safety_word(edit.proof.safe()));
    if (edit.proof.evidence != EditEvidence::kNone) text += ", " + std::string(edit_evidence_name(edit.proof.evidence));
    text += "]";
  }
  json.key("fixes").begin_array().begin_object();
  json.key("description").begin_object().field("text", text).end_object();
  json.key("artifactChanges").begin_array().begin_object();
  json.key("artifactLocation").begin_object().field("uri", uri_reference(artifact)).end_object();
  json.key("replacements").begin_array().begin_object();
  json.key("deletedRegion").begin_object().field("byteOffset", 0).field("byteLength", 0).end_object();
  json.end_object().end_array();
  json.end_object().end_array();
  json.key("properties").begin_object().field("command", command);
  json.field("safety", safety_word(safe));  // additive: "unsafe" when any edit is
  json.key("edits").begin_array();
  for (const SignatureEdit& edit : fix.edits) write_edit(json, edit);
  json.end_array().end_object();
  json.end_object().end_array();
}

void write_result(JsonWriter& json, const FileResult& file, const Finding& f,
                  const std::string& fingerprint, const std::map<std::string_view, int>& index,
                  const RenderOptions& options) {
  FindingAnchor anchor = review_anchor(file, f, options);
  json.begin_object();
  json.field("ruleId", f.rule_id);
  if (auto it = index.find(f.rule_id); it != index.end()) json.field("ruleIndex", it->second);
  json.field("level", severity_name(f.severity));

  std::string text = review_message(file, f, "\n");
  if (anchor.source) {
    // An embedded link to relatedLocations[id=1]: GitHub renders it as a link to the .pt2.
    text += "\n\nIn " + anchor.artifact + (f.program.empty() ? "" : ", program " + f.program);
    if (!f.location.node.empty()) text += ", graph node [" + f.location.node + "](1)";
    else text += " ([exported program](1))";
    text += '.';
  }
  json.key("message").begin_object().field("text", text).end_object();

  json.key("locations").begin_array().begin_object();
  if (anchor.source) {
    json.key("physicalLocation").begin_object();
    json.key("artifactLocation").begin_object();
    json.field("uri", uri_reference(anchor.source->path)).end_object();
    write_region(json, anchor.source->line, anchor.source->code.size());
    json.end_object();
  } else {
    write_artifact_location(json, anchor.artifact, 1);
  }
  write_logical_locations(json, anchor.artifact, f);
  json.end_object().end_array();

  if (anchor.source || !f.related.empty() || f.cause || has_located_note(f)) {
    json.key("relatedLocations").begin_array();
    if (anchor.source) {
      json.begin_object().field("id", 1);
      write_artifact_location(json, anchor.artifact, 1);
      std::string where = f.location.node.empty() ? "the exported program"
                                                  : "graph node " + f.location.node;
      json.key("message").begin_object().field("text", where).end_object();
      json.end_object();
    }
    // The findings this root cause explains (also results of their own, so counts hold).
    for (std::size_t k = 0; k < f.related.size(); ++k) {
      const Finding& grouped = file.findings[f.related[k]];
      json.begin_object().field("id", static_cast<int>(k) + 2);
      write_artifact_location(json, anchor.artifact, 1);
      json.key("message").begin_object();
      json.field("text", "[" + grouped.rule_id + " " + grouped.rule_name + "] " + grouped.message);
      json.end_object().end_object();
    }
    // A grouped finding links back to the primary that explains it.
    if (f.cause) {
      const Finding& primary = file.findings[*f.cause];
      json.begin_object().field("id", 2);
      write_artifact_location(json, anchor.artifact, 1);
      json.key("message").begin_object();
      json.field("text", "caused by [" + primary.rule_id + " " + primary.rule_name + "] " + primary.message);
      json.end_object().end_object();
    }
    // The notes that point at a related place (the other spec of a swap, ...), after the ids
    // above: 1 for the program, then the grouped findings or the primary.
    int id = 2 + std::max(static_cast<int>(f.related.size()), f.cause ? 1 : 0);
    for (const Note& note : f.notes) {
      if (!note.location) continue;
      json.begin_object().field("id", id++);
      write_artifact_location(json, anchor.artifact, 1);
      write_note_location(json, anchor.artifact, f, *note.location);
      json.key("message").begin_object().field("text", note.text).end_object();
      json.end_object();
    }
    json.end_array();
  }

  if (f.fix && !f.fix->edits.empty()) write_fix(json, anchor.artifact, *f.fix);

  json.key("partialFingerprints").begin_object();
  // GitHub keys alerts on primaryLocationLineHash alone and keeps a value it is given.
  json.field("primaryLocationLineHash", fingerprint);
  json.field("pt2lintFinding/v1", fingerprint);
  json.end_object();
  if (options.baseline_active || f.baselined)
    json.field("baselineState", f.baselined ? "unchanged" : "new");
  json.key("properties").begin_object();
  json.field("file", anchor.artifact).field("program", f.program).field("ruleName", f.rule_name);
  if (!f.root_cause.empty()) json.field("rootCause", f.root_cause);
  if (f.cause) json.field("causedBy", file.findings[*f.cause].rule_id + ": " + file.findings[*f.cause].message);
  json.end_object();
  json.end_object();
}

}  // namespace

void SarifRenderer::render(const RunReport& report, const RenderOptions& options,
                           std::ostream& out) const {
  std::vector<const RuleInfo*> rules = sorted_rules(options.registry);
  std::map<std::string_view, int> index;
  for (std::size_t i = 0; i < rules.size(); ++i) index[rules[i]->id] = static_cast<int>(i);

  JsonWriter json(out, /*pretty=*/true);
  json.begin_object();
  json.field("$schema", "https://json.schemastore.org/sarif-2.1.0.json");
  json.field("version", "2.1.0");
  json.key("runs").begin_array().begin_object();
  json.key("tool").begin_object().key("driver").begin_object();
  json.field("name", "pt2lint").field("semanticVersion", PT2LINT_VERSION);
  if (!options.docs_url.empty()) json.field("informationUri", options.docs_url);
  json.key("rules").begin_array();
  for (const RuleInfo* rule : rules) write_rule(json, *rule, options);
  json.end_array();
  json.end_object().end_object();
  json.key("invocations").begin_array().begin_object();
  json.field("executionSuccessful", true).end_object().end_array();
  json.key("results").begin_array();
  for (const FileResult& file : report.files) {
    std::vector<std::string> prints = file_fingerprints(file);
    for (std::size_t i = 0; i < file.findings.size(); ++i)
      write_result(json, file, file.findings[i], prints[i], index, options);
  }
  json.end_array();
  json.end_object().end_array();
  json.end_object();
  out << '\n';
}

}  // namespace pt2lint
