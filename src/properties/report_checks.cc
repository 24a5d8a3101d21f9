#include "properties/report_checks.h"

#include <sstream>

#include <fmt/format.h>
#include <simdjson.h>

#include "reports/formats.h"

namespace pt2lint::properties {
namespace {

std::size_t count(const FileResult& file, Severity severity) {
  std::size_t n = 0;
  for (const Finding& f : file.findings) n += f.severity == severity ? 1 : 0;
  return n;
}

void check_json_report(simdjson::dom::element doc, const FileResult& file, std::vector<std::string>& problems) {
  simdjson::dom::array files;
  if (doc["files"].get(files) || files.size() != 1) return problems.push_back("json: `files` is not a 1-element list");
  simdjson::dom::array findings;
  if (files.at(0)["findings"].get(findings) || findings.size() != file.findings.size())
    problems.push_back(fmt::format("json: {} findings listed, {} reported", findings.size(), file.findings.size()));
  std::uint64_t errors = 0, warnings = 0;
  if (doc["summary"]["errors"].get(errors) || doc["summary"]["warnings"].get(warnings) ||
      errors != count(file, Severity::kError) || warnings != count(file, Severity::kWarning))
    problems.push_back("json: summary counts differ from the findings");
}

void check_sarif_report(simdjson::dom::element doc, const FileResult& file, std::vector<std::string>& problems) {
  std::string_view version;
  if (doc["version"].get(version) || version != "2.1.0") problems.push_back("sarif: version is not 2.1.0");
  simdjson::dom::array runs, rules, results;
  if (doc["runs"].get(runs) || runs.size() != 1) return problems.push_back("sarif: `runs` is not a 1-element list");
  if (runs.at(0)["tool"]["driver"]["rules"].get(rules)) return problems.push_back("sarif: no tool.driver.rules");
  if (runs.at(0)["results"].get(results)) return problems.push_back("sarif: no results");
  if (results.size() != file.findings.size())
    problems.push_back(fmt::format("sarif: {} results for {} findings", results.size(), file.findings.size()));
  for (simdjson::dom::element result : results) {
    std::string_view rule_id, text, level;
    std::uint64_t rule_index = 0;
    if (result["ruleId"].get(rule_id) || result["message"]["text"].get(text) || result["level"].get(level))
      problems.push_back("sarif: a result lacks ruleId, message.text or level");
    if (level != "error" && level != "warning" && level != "note" && level != "none")
      problems.push_back(fmt::format("sarif: result level `{}`", level));
    if (!result["ruleIndex"].get(rule_index) && rule_index >= rules.size())
      problems.push_back(fmt::format("sarif: ruleIndex {} of {} rules", rule_index, rules.size()));
    simdjson::dom::array locations;
    if (result["locations"].get(locations) || locations.size() == 0)
      problems.push_back("sarif: a result has no location");
  }
}

// Whether the byte at text[i] starts a control the reader would act on: C0 but '\n' and '\t',
// DEL, a C1 control or U+2028/2029 in UTF-8.
bool control_at(std::string_view text, std::size_t i) {
  const auto c = static_cast<unsigned char>(text[i]);
  if ((c < 0x20 && c != '\n' && c != '\t') || c == 0x7F) return true;
  const auto next = [&](std::size_t k) {
    return i + k < text.size() ? static_cast<unsigned char>(text[i + k]) : 0;
  };
  if (c == 0xC2 && next(1) >= 0x80 && next(1) <= 0x9F) return true;
  return c == 0xE2 && next(1) == 0x80 && (next(2) == 0xA8 || next(2) == 0xA9);
}

// Outputs people and CI logs read (text, markdown, github): no raw control from a name, and no
// line a name begins that GitHub would run as a workflow command. A workflow-command format's
// own annotations are the only lines that may start with "::".
void check_inert_output(const ReportFormat& row, std::string_view text,
                        std::vector<std::string>& problems) {
  const std::string_view format = row.name;
  for (std::size_t i = 0; i < text.size(); ++i) {
    if (control_at(text, i)) {
      problems.push_back(fmt::format("{}: raw control byte {:#04x} at byte {}", format,
                                     static_cast<unsigned char>(text[i]), i));
      return;
    }
  }
  for (std::size_t start = 0; start < text.size();) {
    std::size_t end = text.find('\n', start);
    if (end == std::string_view::npos) end = text.size();
    const std::string_view line = text.substr(start, end - start);
    const bool own = row.workflow_commands &&
                     (line.substr(0, 14) == "::error title=" || line.substr(0, 16) == "::warning title=" ||
                      line.substr(0, 15) == "::notice title=");
    if (line.substr(0, 2) == "::" && !own) {
      problems.push_back(fmt::format("{}: a line starts with '::': {}", format, line.substr(0, 80)));
      return;
    }
    start = end + 1;
  }
}

}  // namespace

std::vector<std::string> check_every_report(const FileResult& file, const RuleRegistry& registry) {
  RunReport report;
  report.files.push_back(file);
  RenderOptions options;
  options.registry = &registry;
  options.show_mutations = true;
  options.verbose = true;
  options.statistics = true;
  std::vector<std::string> problems;
  simdjson::dom::parser parser;
  for (const ReportFormat& row : report_formats()) {
    const std::string_view format = row.name;
    std::ostringstream out;
    row.make()->render(report, options, out);
    if (row.log_lines) check_inert_output(row, out.str(), problems);
    if (!row.json) continue;
    const simdjson::padded_string text(out.str());
    simdjson::dom::element doc;
    if (auto error = parser.parse(text).get(doc)) {
      problems.push_back(fmt::format("{}: does not parse as JSON: {}", format, simdjson::error_message(error)));
      continue;
    }
    if (format == "json") check_json_report(doc, file, problems);
    if (format == "sarif") check_sarif_report(doc, file, problems);
  }
  return problems;
}

}  // namespace pt2lint::properties
