#include "core/diagnostic_sink.h"

#include <algorithm>

namespace pt2lint {

std::string_view severity_name(Severity severity) {
  return by_severity<std::string_view>(severity, "note", "warning", "error");
}

std::optional<Severity> parse_severity(std::string_view text) {
  if (text == "note") return Severity::kNote;
  if (text == "warning") return Severity::kWarning;
  if (text == "error") return Severity::kError;
  return std::nullopt;
}

bool CollectingSink::has_errors() const {
  return std::any_of(findings_.begin(), findings_.end(),
                     [](const Finding& f) { return f.severity == Severity::kError; });
}

InFlightFinding::InFlightFinding(DiagnosticSink& sink, const RuleInfo& rule, std::string program,
                                 std::string message)
    : sink_(sink) {
  finding_.rule_id = std::string(rule.id);
  finding_.rule_name = std::string(rule.name);
  finding_.severity = rule.default_severity;
  finding_.program = std::move(program);
  finding_.message = std::move(message);
}

InFlightFinding::~InFlightFinding() { sink_.report(std::move(finding_)); }

InFlightFinding& InFlightFinding::severity(Severity severity) {
  finding_.severity = severity;
  return *this;
}
InFlightFinding& InFlightFinding::at_input_spec(int index) {
  finding_.location.input_spec = index;
  return *this;
}
InFlightFinding& InFlightFinding::at_output_spec(int index) {
  finding_.location.output_spec = index;
  return *this;
}
InFlightFinding& InFlightFinding::at_node(std::string node) {
  finding_.location.node = std::move(node);
  return *this;
}
InFlightFinding& InFlightFinding::at_value(std::string value) {
  finding_.location.value = std::move(value);
  return *this;
}
InFlightFinding& InFlightFinding::at_json_path(std::string path) {
  finding_.location.json_path = std::move(path);
  return *this;
}
InFlightFinding& InFlightFinding::at_member(std::string member) {
  finding_.location.archive_member = std::move(member);
  return *this;
}
InFlightFinding& InFlightFinding::op(std::string target) {
  finding_.op = std::move(target);
  return *this;
}
InFlightFinding& InFlightFinding::state(std::string fqn) {
  finding_.state_fqn = std::move(fqn);
  return *this;
}
InFlightFinding& InFlightFinding::stack_trace(std::string trace) {
  finding_.stack_trace = std::move(trace);
  return *this;
}
InFlightFinding& InFlightFinding::note(std::string text) {
  finding_.notes.push_back(std::move(text));
  return *this;
}
InFlightFinding& InFlightFinding::note(std::string text, Location at) {
  finding_.notes.emplace_back(std::move(text), std::move(at));
  return *this;
}
InFlightFinding& InFlightFinding::fix(std::string description, std::string replacement) {
  finding_.fix = SuggestedFix{std::move(description), std::move(replacement), {}};
  return *this;
}

}  // namespace pt2lint
