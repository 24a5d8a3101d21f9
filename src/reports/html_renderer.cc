#include "reports/html_renderer.h"

#include <fmt/format.h>

#include <algorithm>
#include <array>
#include <map>
#include <set>

#include "reports/graph/finding_pictures.h"
#include "reports/graph/picture_writers.h"
#include "reports/html/html_text.h"
#include "reports/html/note_targets.h"
#include "reports/html/page_assets.h"
#include "reports/review_text.h"
#include "reports/run_summary.h"

namespace pt2lint {
namespace {

using html::escape;
using html::inline_code;
using html::NoteTargets;

constexpr std::array<Severity, 3> kSeverities = {Severity::kError, Severity::kWarning, Severity::kNote};

struct RuleCount {
  std::string name;
  std::array<std::size_t, 3> by_severity{};  // indexed by Severity
};

// Counts of one file's findings, by severity.
std::array<std::size_t, 3> file_counts(const FileResult& file) {
  std::array<std::size_t, 3> n{};
  for (const Finding& f : file.findings) ++n[static_cast<int>(f.severity)];
  return n;
}

std::string count_words(const std::array<std::size_t, 3>& n) {
  return fmt::format("{} error{}, {} warning{}, {} note{}", n[2], n[2] == 1 ? "" : "s", n[1],
                     n[1] == 1 ? "" : "s", n[0], n[0] == 1 ? "" : "s");
}

void write_summary(const RunReport& report, const ReportCounts& counts,
                   const std::map<std::string, RuleCount>& rules, std::ostream& out) {
  out << "<section id=\"summary\"><h2>Summary</h2>\n";
  out << "<p class=\"totals\">" << escape(closing_summary(counts)) << ".</p>\n";
  if (rules.empty()) {
    out << fmt::format("<p class=\"no-findings\" id=\"no-findings\">No findings: every program of the {} "
                       "checked file{} passed the rules that ran.</p>\n</section>\n",
                       counts.files, counts.files == 1 ? "" : "s");
    return;
  }
  out << "<h3>By rule and severity</h3>\n<table id=\"by-rule\"><tr><th>rule</th>"
         "<th>errors</th><th>warnings</th><th>notes</th><th></th></tr>\n";
  for (const auto& [id, rule] : rules) {
    out << fmt::format("<tr><td><a href=\"#doc-{1}\">{0} {1}</a></td><td class=\"n\">{2}</td>"
                       "<td class=\"n\">{3}</td><td class=\"n\">{4}</td>"
                       "<td><a href=\"#\" data-only-rule=\"{0}\">show only these</a></td></tr>\n",
                       escape(id), escape(rule.name), rule.by_severity[2], rule.by_severity[1],
                       rule.by_severity[0]);
  }
  // Long runs fold the per-file table away. Each file with findings links to its group.
  out << fmt::format("</table>\n<details{}><summary>By file and program</summary>\n", report.files.size() <= 30 ? " open" : "");
  out << "<table id=\"by-file\"><tr><th>file</th><th>program</th>"
         "<th>errors</th><th>warnings</th><th>notes</th></tr>\n";
  for (std::size_t k = 0; k < report.files.size(); ++k) {
    const FileResult& file = report.files[k];
    std::map<std::string, std::array<std::size_t, 3>> by_program;
    for (const ProgramSummary& program : file.programs) by_program[program.name];
    for (const Finding& f : file.findings) ++by_program[f.program][static_cast<int>(f.severity)];
    if (by_program.empty()) by_program[""];
    const std::string name = file.findings.empty()
                                 ? fmt::format("<code>{}</code>", escape(file.path))
                                 : fmt::format("<a href=\"#file-{0}\" data-open-file=\"{0}\"><code>{1}</code></a>", k,
                                               escape(file.path));
    for (const auto& [program, n] : by_program) {
      out << fmt::format("<tr><td>{}</td><td>{}</td><td class=\"n\">{}</td>"
                         "<td class=\"n\">{}</td><td class=\"n\">{}</td></tr>\n",
                         name, program.empty() ? "—" : escape(program), n[2], n[1], n[0]);
    }
  }
  out << "</table></details></section>\n";
}

void write_filters(const RunReport& report, const std::map<std::string, RuleCount>& rules, std::size_t total,
                   std::ostream& out) {
  out << "<section id=\"filters\"><label><strong>Search:</strong> <input type=\"search\" id=\"search\" "
         "placeholder=\"text in messages, notes, nodes, state\" size=\"36\"></label> "
         "<label><strong>File:</strong> <select id=\"file-filter\"><option value=\"\">every file</option>";
  for (std::size_t k = 0; k < report.files.size(); ++k)
    if (!report.files[k].findings.empty())
      out << fmt::format("<option value=\"{}\">{}</option>", k, escape(report.files[k].path));
  out << "</select></label><br><strong>Rules:</strong> ";
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

// A note; one about a related place (Note::location) names it, linked to the finding there.
void write_note(const NoteTargets& targets, const std::vector<std::size_t>& numbers, std::size_t i,
                const Note& note, std::ostream& out) {
  out << "<li>" << inline_code(note.text);
  if (note.location) {
    const std::string where = escape(describe_location(*note.location));
    if (const long at = targets.target(i, *note.location); at >= 0) {
      const std::size_t number = numbers[static_cast<std::size_t>(at)];
      out << fmt::format(" <a class=\"note-at\" href=\"#finding-{}\">→ {} (#{})</a>", number, where, number);
    } else {
      out << fmt::format(" <span class=\"note-at\">(at {})</span>", where);
    }
  }
  out << "</li>";
}

void write_finding(const FileResult& file, const NoteTargets& targets, const std::vector<std::size_t>& numbers,
                   std::size_t i, std::size_t k, std::ostream& out) {
  const Finding& f = file.findings[i];
  const std::size_t number = numbers[i];
  out << fmt::format("<article class=\"finding{}\" id=\"finding-{}\" data-rule=\"{}\" data-severity=\"{}\" "
                     "data-file=\"{}\"><div class=\"text\">",
                     f.cause ? " folded" : "", number, escape(f.rule_id), severity_name(f.severity), k);
  out << fmt::format("<h4>#{0} <span class=\"sev sev-{1}\">{1}</span> <a href=\"#doc-{3}\">{2} {3}</a>{4}</h4>\n",
                     number, severity_name(f.severity), escape(f.rule_id), escape(f.rule_name),
                     f.baselined ? " <span class=\"baseline\">(baselined)</span>" : "");
  std::string where = describe_location(f.location);
  out << fmt::format("<div class=\"where\">program <code>{}</code>{}{}</div>\n",
                     f.program.empty() ? "—" : escape(f.program), where.empty() ? "" : " · at ",
                     escape(where));
  out << "<p class=\"message\">" << inline_code(f.message) << "</p>\n";
  if (!f.notes.empty()) {
    out << "<ul class=\"notes\">";
    for (const Note& note : f.notes) write_note(targets, numbers, i, note, out);
    out << "</ul>\n";
  }
  if (f.fix) out << "<p class=\"fix\"><strong>fix:</strong> " << inline_code(f.fix->description) << "</p>\n";
  out << "</div>";
  if (!f.picture.empty()) out << "<div class=\"picture\">" << f.picture << "</div>";
  out << "</article>\n";
}

// One file's findings, folded into a group; the findings a root cause explains fold under it.
void write_file_group(const FileResult& file, std::size_t k, bool open, std::size_t& number,
                      std::ostream& out) {
  out << fmt::format("<details class=\"file\" id=\"file-{}\" data-file=\"{}\"{}><summary><code>{}</code> · {}"
                     "</summary>\n",
                     k, k, open ? " open" : "", escape(file.path), count_words(file_counts(file)));
  // Numbers follow the file's order, whatever the folding.
  std::vector<std::size_t> numbers(file.findings.size());
  for (std::size_t i = 0; i < file.findings.size(); ++i) numbers[i] = ++number;
  const std::vector<char> listed = listed_in_report(file);
  const NoteTargets targets(file, listed);
  for (std::size_t i = 0; i < file.findings.size(); ++i) {
    const Finding& f = file.findings[i];
    if (f.cause) continue;
    write_finding(file, targets, numbers, i, k, out);
    if (f.related.empty()) continue;
    out << fmt::format("<details class=\"folded\"><summary>{} more finding{} with this root cause</summary>\n",
                       f.related.size(), f.related.size() == 1 ? "" : "s");
    const std::size_t listed = std::min(f.related.size(), kMaxFoldedFindingsListed);
    for (std::size_t j = 0; j < listed; ++j)
      write_finding(file, targets, numbers, static_cast<std::size_t>(f.related[j]), k, out);
    if (f.related.size() > listed)
      out << fmt::format("<p class=\"unlisted\">{} more findings with this root cause are not listed "
                         "here; the JSON report (<code>--format json</code>) has every one.</p>\n",
                         f.related.size() - listed);
    out << "</details>\n";
  }
  out << "</details>\n";
}

void write_mutation_sets(const RunReport& report, std::ostream& out) {
  // Folded on a page of many files: the summary and the finding groups come first.
  out << fmt::format("<section id=\"mutations\"><h2>Effective mutation sets</h2>\n<details{}><summary>The "
                     "state each program writes, and the nodes that write it (see docs/dataflow.md)</summary>\n",
                     report.files.size() <= 1 ? " open" : "");
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
                           escape(state_kind_name(m.kind)), nodes);
      }
      out << "</table>\n";
    }
  }
  out << "</details></section>\n";
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
  if (total > 0) {
    out << "<section id=\"findings\"><h2>Findings</h2>\n";
    write_filters(report, rules, total, out);
    bool pictures = false;
    for (const FileResult& file : report.files)
      for (const Finding& f : file.findings) pictures = pictures || !f.picture.empty();
    if (pictures)
      out << "<details id=\"legend\"><summary>Legend of the pictures</summary>"
          << graph::svg_legend(graph::kPageIdPrefix) << "</details>\n";
    std::size_t with_findings = 0;
    for (const FileResult& file : report.files) with_findings += !file.findings.empty();
    std::size_t number = 0;
    for (std::size_t k = 0; k < report.files.size(); ++k)
      if (!report.files[k].findings.empty()) write_file_group(report.files[k], k, with_findings == 1, number, out);
    out << "</section>\n";
  }
  write_mutation_sets(report, out);
  write_rule_docs(rules, options, out);
  out << "<script>" << html::filter_script() << "</script>\n</body></html>\n";
}

}  // namespace pt2lint
