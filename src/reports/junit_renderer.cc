#include "reports/junit_renderer.h"

#include <fmt/format.h>

#include <algorithm>
#include <iterator>
#include <sstream>

#include "reports/finding_anchor.h"
#include "reports/review_text.h"

namespace pt2lint {
namespace {

// XML 1.0 forbids most control characters even when escaped; they become spaces.
std::string xml_escape(std::string_view text) {
  std::string escaped;
  for (unsigned char c : text) {
    switch (c) {
      case '&': escaped += "&amp;"; break;
      case '<': escaped += "&lt;"; break;
      case '>': escaped += "&gt;"; break;
      case '"': escaped += "&quot;"; break;
      case '\'': escaped += "&apos;"; break;
      case '\n': escaped += "&#10;"; break;
      case '\t': escaped += "&#9;"; break;
      default: escaped += c < 0x20 ? ' ' : static_cast<char>(c);
    }
  }
  return escaped;
}

// "models/enc.pt2", "decode" -> "models.enc.decode": Jenkins splits a classname on dots into
// package and class, and GitLab needs it to keep test cases of different programs apart.
std::string class_name(const std::string& artifact, const std::string& program) {
  std::string name = artifact;
  if (std::size_t dot = name.rfind('.'); dot != std::string::npos && name.find('/', dot) == std::string::npos)
    name.erase(dot);
  for (char& c : name)
    if (c == '/') c = '.';
  return program.empty() ? name : name + "." + program;
}

struct RuleCase {
  std::string rule_id, rule_name;
  std::vector<const Finding*> findings;
};

// One test case per program and rule; a program without findings gets one passing case so
// dashboards show that it was checked.
struct ProgramCases {
  std::string program;
  std::vector<RuleCase> rules;  // in first-finding order
};

std::vector<ProgramCases> group(const FileResult& file) {
  std::vector<ProgramCases> programs;
  auto program_cases = [&programs](const std::string& name) -> ProgramCases& {
    for (ProgramCases& p : programs)
      if (p.program == name) return p;
    programs.push_back({name, {}});
    return programs.back();
  };
  for (const ProgramSummary& p : file.programs) program_cases(p.name);
  for (const Finding& f : file.findings) {
    ProgramCases& p = program_cases(f.program);
    auto it = std::find_if(p.rules.begin(), p.rules.end(),
                           [&f](const RuleCase& r) { return r.rule_id == f.rule_id; });
    if (it == p.rules.end()) {
      p.rules.push_back({f.rule_id, f.rule_name, {}});
      it = std::prev(p.rules.end());
    }
    it->findings.push_back(&f);
  }
  return programs;
}

// A case fails as the run does (exit 1) and as `pytest --pt2lint` does: on an error that is
// not in the baseline. Warnings and notes stay visible in system-out.
const Finding* failing_finding(const RuleCase& rule) {
  for (const Finding* f : rule.findings)
    if (f->severity == Severity::kError && !f->baselined) return f;
  return nullptr;
}

std::string finding_line(const FileResult& file, const Finding& f) {
  std::string where = describe_location(f.location);
  return fmt::format("{}{}: {}{}", severity_name(f.severity), f.baselined ? " (baseline)" : "",
                     where.empty() ? "" : where + ": ", review_message(file, f, "\n  "));
}

}  // namespace

void JunitRenderer::render(const RunReport& report, const RenderOptions& options,
                           std::ostream& out) const {
  std::ostringstream suites;
  std::size_t total_tests = 0, total_failures = 0;
  for (const FileResult& file : report.files) {
    std::string artifact = artifact_path(file.path, options.source_root);
    std::vector<ProgramCases> programs = group(file);
    std::ostringstream cases;
    std::size_t tests = 0, failures = 0;
    for (const ProgramCases& p : programs) {
      std::string classname = xml_escape(class_name(artifact, p.program));
      if (p.rules.empty()) {
        ++tests;
        cases << fmt::format("    <testcase classname=\"{}\" name=\"pt2lint\" file=\"{}\" time=\"0\"/>\n",
                             classname, xml_escape(artifact));
        continue;
      }
      for (const RuleCase& rule : p.rules) {
        ++tests;
        cases << fmt::format("    <testcase classname=\"{}\" name=\"{} {}\" file=\"{}\" time=\"0\">\n",
                             classname, xml_escape(rule.rule_id), xml_escape(rule.rule_name),
                             xml_escape(artifact));
        std::string body;
        for (const Finding* f : rule.findings) body += finding_line(file, *f) + "\n";
        if (const Finding* failing = failing_finding(rule)) {
          ++failures;
          cases << fmt::format("      <failure message=\"{}\" type=\"{}\">{}</failure>\n",
                               xml_escape(failing->message), severity_name(failing->severity),
                               xml_escape(body));
        } else {
          // Warnings, notes and baselined findings do not fail the case but stay visible.
          cases << "      <system-out>" << xml_escape(body) << "</system-out>\n";
        }
        cases << "    </testcase>\n";
      }
    }
    total_tests += tests;
    total_failures += failures;
    suites << fmt::format(
        "  <testsuite name=\"{}\" tests=\"{}\" failures=\"{}\" errors=\"0\" skipped=\"0\" time=\"0\">\n",
        xml_escape(artifact), tests, failures);
    suites << cases.str() << "  </testsuite>\n";
  }
  out << "<?xml version=\"1.0\" encoding=\"UTF-8\"?>\n";
  out << fmt::format("<testsuites name=\"pt2lint\" tests=\"{}\" failures=\"{}\" errors=\"0\" time=\"0\">\n",
                     total_tests, total_failures);
  out << suites.str() << "</testsuites>\n";
}

}  // namespace pt2lint
