#include "reports/html_renderer.h"

#include <fmt/format.h>

#include <array>
#include <map>
#include <set>

#include "reports/graph/finding_pictures.h"
#include "reports/graph/picture_writers.h"
#include "reports/html/html_text.h"
#include "reports/html/page_assets.h"

namespace pt2lint {
namespace {

using html::escape;
using html::inline_code;

constexpr std::array<Severity, 3> kSeverities = {Severity::kError, Severity::kWarning, Severity::kNote};

struct RuleCount {
  std::string name;
  std::array<std::size_t, 3> by_severity{};  // indexed by Severity
};

void write_summary(const RunReport& report, const ReportCounts& counts,
                   const std::map<std::string, RuleCount>& rules, std::ostream& out) {
  out << "<section id=\"summary\"><h2>Summary</h2>\n";
  out << fmt::format("<p class=\"totals\">{} files checked: {} errors, {} warnings, {} notes{}.</p>\n",
                     counts.files, counts.errors, counts.warnings, counts.notes,
                     counts.baselined > 0 ? fmt::format(" ({} in the baseline)", counts.baselined) : "");
  out << "<h3>By rule and severity</h3>\n<table id=\"by-rule\"><tr><th>rule</th>"
         "<th>errors</th><th>warnings</th><th>notes</th><th></th></tr>\n";
  for (const auto& [id, rule] : rules) {
    out << fmt::format("<tr><td><a href=\"#doc-{1}\">{0} {1}</a></td><td class=\"n\">{2}</td>"
                       "<td class=\"n\">{3}</td><td class=\"n\">{4}</td>"
                       "<td><a href=\"#\" data-only-rule=\"{0}\">show only these</a></td></tr>\n",
                       escape(id), escape(rule.name), rule.by_severity[2], rule.by_severity[1],
                       rule.by_severity[0]);
  }
  // Long runs fold the per-file table away; the findings below are grouped by file too.
  out << fmt::format("</table>\n<details{}><summary>By file and program</summary>\n", report.files.size() <= 30 ? " open" : "");
  out << "<table id=\"by-file\"><tr><th>file</th><th>program</th>"
         "<th>errors</th><th>warnings</th><th>notes</th></tr>\n";
  for (const FileResult& file : report.files) {
    std::map<std::string, std::array<std::size_t, 3>> by_program;
    for (const ProgramSummary& program : file.programs) by_program[program.name];
    for (const Finding& f : file.findings) ++by_program[f.program][static_cast<int>(f.severity)];
    if (by_program.empty()) by_program[""];
    for (const auto& [program, n] : by_program) {
      out << fmt::format("<tr><td><code>{}</code></td><td>{}</td><td class=\"n\">{}</td>"
                         "<td class=\"n\">{}</td><td class=\"n\">{}</td></tr>\n",
                         escape(file.path), program.empty() ? "—" : escape(program), n[2], n[1], n[0]);
    }
  }
  out << "</table></details></section>\n";
}

void write_filters(const std::map<std::string, RuleCount>& rules, std::size_t total, std::ostream& out) {
  out << "<section id=\"filters\"><strong>Rules:</strong> ";
  for (const auto& [id, rule] : rules)
    out << fmt::format("<label title=\"{1}\"><input type=\"checkbox\" data-filter=\"rule\" value=\"{0}\" "
                       "checked> {0}</label>",
                       escape(id), escape(rule.name));
  out << "<br><strong>Severity:</strong> ";
  for (Severity severity : kSeverities)
    out << fmt::format("<label><input type=\"checkbox\" data-filter=\"severity\" value=\"{0}\" checked> "
                       "{0}</label>",
                       severity_name(severity));
  out << fmt::format("<span><span id=\"shown-count\">{}</span> of <span id=\"total-count\">{}</span> "
                     "findings shown · <a href=\"#\" id=\"show-all\">show all</a></span></section>\n",
                     total, total);
}

void write_finding(const Finding& f, std::size_t number, std::ostream& out) {
  out << fmt::format("<article class=\"finding\" id=\"finding-{}\" data-rule=\"{}\" data-severity=\"{}\">"
                     "<div class=\"text\">",
                     number, escape(f.rule_id), severity_name(f.severity));
  out << fmt::format("<h4>#{0} <span class=\"sev sev-{1}\">{1}</span> <a href=\"#doc-{3}\">{2} {3}</a>{4}</h4>\n",
                     number, severity_name(f.severity), escape(f.rule_id), escape(f.rule_name),
                     f.baselined ? " <span class=\"baseline\">(in the baseline)</span>" : "");
  std::string where = describe_location(f.location);
  out << fmt::format("<div class=\"where\">program <code>{}</code>{}{}</div>\n",
                     f.program.empty() ? "—" : escape(f.program), where.empty() ? "" : " · at ",
                     escape(where));
  out << "<p class=\"message\">" << inline_code(f.message) << "</p>\n";
  if (!f.notes.empty()) {
    out << "<ul class=\"notes\">";
    for (const std::string& note : f.notes) out << "<li>" << inline_code(note) << "</li>";
    out << "</ul>\n";
  }
  if (f.fix) out << "<p class=\"fix\"><strong>fix:</strong> " << inline_code(f.fix->description) << "</p>\n";
  out << "</div><div class=\"picture\">" << f.picture << "</div></article>\n";
}

void write_mutation_sets(const RunReport& report, std::ostream& out) {
  out << "<section id=\"mutations\"><h2>Effective mutation sets</h2>\n"
         "<p>The state each program writes, and the nodes that write it (see docs/dataflow.md).</p>\n";
  for (const FileResult& file : report.files) {
    for (const ProgramSummary& program : file.programs) {
      out << fmt::format("<h3><code>{}</code>: {} <small>({}, schema {})</small></h3>\n",
                         escape(file.path), escape(program.name),
                         program.dialect.empty() ? "dialect undeclared" : escape(program.dialect),
                         escape(program.schema_version));
      if (!program.structure_sound) {
        out << "<p>Not computed: the program's structure is broken (see its findings).</p>\n";
        continue;
      }
      if (program.mutations.empty()) {
        out << "<p>Writes no state.</p>\n";
        continue;
      }
      out << "<table class=\"mutation-set\"><tr><th>state</th><th>kind</th><th>written by</th></tr>\n";
      for (const MutationSummary& m : program.mutations) {
        std::string nodes;
        for (const std::string& node : m.nodes)
          nodes += (nodes.empty() ? "" : ", ") + ("<code>" + escape(node) + "</code>");
        out << fmt::format("<tr><td><code>{}</code></td><td>{}</td><td>{}</td></tr>\n", escape(m.target),
                           escape(m.kind), nodes);
      }
      out << "</table>\n";
    }
  }
  out << "</section>\n";
}

void write_rule_docs(const std::map<std::string, RuleCount>& rules, const RenderOptions& options,
                     std::ostream& out) {
  out << "<section id=\"rule-docs\"><h2>Rules</h2>\n";
  for (const auto& [id, rule] : rules) {
    std::string_view page = options.rule_doc ? options.rule_doc(rule.name) : std::string_view();
    out << fmt::format("<details class=\"rule-doc\" id=\"doc-{1}\"><summary>{0} {1}</summary>", escape(id),
                       escape(rule.name));
    if (!options.docs_url.empty())
      out << fmt::format("<p><a href=\"{0}{1}.md\">{0}{1}.md</a></p>", escape(options.docs_url),
                         escape(rule.name));
    out << "<pre>" << (page.empty() ? "(no page)" : escape(page)) << "</pre></details>\n";
  }
  out << "</section>\n";
}

}  // namespace

void HtmlRenderer::render(const RunReport& report, const RenderOptions& options,
                          std::ostream& out) const {
  std::map<std::string, RuleCount> rules;
  std::size_t total = 0;
  for (const FileResult& file : report.files) {
    for (const Finding& f : file.findings) {
      RuleCount& rule = rules[f.rule_id];
      rule.name = f.rule_name;
      ++rule.by_severity[static_cast<int>(f.severity)];
      ++total;
    }
  }
  out << "<!DOCTYPE html>\n<html lang=\"en\"><head><meta charset=\"utf-8\">"
         "<meta name=\"viewport\" content=\"width=device-width, initial-scale=1\">"
         "<title>pt2lint report</title><style>"
      << html::page_style() << "</style></head><body>\n";
  out << graph::svg_marker_defs(graph::kPageIdPrefix);
  out << fmt::format("<h1>pt2lint report</h1><p>pt2lint {}</p>\n", PT2LINT_VERSION);
  write_summary(report, count_findings(report), rules, out);
  out << "<section id=\"findings\"><h2>Findings</h2>\n";
  write_filters(rules, total, out);
  std::size_t number = 0;
  for (const FileResult& file : report.files) {
    if (file.findings.empty()) continue;
    out << fmt::format("<section class=\"file\"><h3><code>{}</code></h3>\n", escape(file.path));
    for (const Finding& f : file.findings) write_finding(f, ++number, out);
    out << "</section>\n";
  }
  if (total == 0) out << "<p>No findings.</p>\n";
  out << "</section>\n";
  write_mutation_sets(report, out);
  write_rule_docs(rules, options, out);
  out << "<script>" << html::filter_script() << "</script>\n</body></html>\n";
}

}  // namespace pt2lint
