#include "reports/text_renderer.h"

#include <map>
#include <string>

#include "reports/escape/text_escape.h"
#include "reports/run_summary.h"

namespace pt2lint {
namespace {

// "also explains 3 more findings (2 PT301 mutation-value-derives-from-target, 1 PT302 ...)".
std::string folded_summary(const FileResult& file, const Finding& primary) {
  std::map<std::string, int> per_rule;
  for (int i : primary.related)
    ++per_rule[file.findings[i].rule_id + " " + file.findings[i].rule_name];
  std::string out = "also explains " + std::to_string(primary.related.size()) +
                    (primary.related.size() == 1 ? " more finding (" : " more findings (");
  bool first = true;
  for (const auto& [rule, count] : per_rule) {
    out += (first ? "" : ", ") + std::to_string(count) + ' ' + rule;
    first = false;
  }
  return out + "), folded here; --verbose shows them";
}

}  // namespace

void TextRenderer::render(const RunReport& report, const RenderOptions& options,
                          std::ostream& out) const {
  TextPalette palette{options.color};
  // --statistics alone: the per-rule table and the summary, as ruff prints them.
  if (options.statistics) {
    write_statistics(report, out);
    out << closing_summary(count_findings(report)) << '\n';
    return;
  }
  for (const FileResult& file : report.files) {
    for (const Finding& f : file.findings) {
      // A finding grouped under a root cause is folded into its primary unless --verbose.
      if (f.cause && !options.verbose) continue;
      // Every name and message below comes from the file: inert_text keeps it from acting
      // on the terminal or the CI log (reports/escape/text_escape.h).
      write_finding_line(file.path, f, palette, out);
      out << '\n';
      std::string where = describe_location(f.location);
      if (!f.op.empty()) where += (where.empty() ? "op " : ", op ") + f.op;
      if (!where.empty()) out << "  at: " << inert_text(where) << '\n';
      if (std::string source = user_source_line(f, options.source_root); !source.empty())
        out << "  source: " << inert_text(source) << '\n';
      for (const Note& note : f.notes) out << "  note: " << inert_text(note.text) << '\n';
      if (f.fix) out << "  fix: " << inert_text(f.fix->description) << '\n';
      if (f.cause)
        out << "  caused by: the root cause reported above (" << inert_text(file.findings[*f.cause].root_cause)
            << ")\n";
      if (!f.related.empty() && !options.verbose) out << "  " << folded_summary(file, f) << '\n';
    }
    if (options.verbose) {
      for (const ProgramSummary& program : file.programs)
        for (const std::string& fact : program.undecided)
          out << inert_line_start(file.path) << ':' << inert_text(program.name) << ": " << inert_text(fact) << '\n';
      for (const ProgramSummary& program : file.programs) {
        if (program.unknown_ops.empty()) continue;
        out << inert_line_start(file.path) << ':' << inert_text(program.name)
            << ": ops without a known schema, whose effects are assumed unknown (never an error):";
        for (const std::string& op : program.unknown_ops) out << ' ' << inert_text(op);
        out << '\n';
      }
    }
    if (options.show_mutations) {
      for (const ProgramSummary& program : file.programs) {
        out << inert_line_start(file.path) << ':' << inert_text(program.name) << ": effective mutation set ("
            << (program.dialect.empty() ? "no dialect" : program.dialect) << "):";
        if (program.mutations.empty()) out << " none";
        out << '\n';
        for (const MutationSummary& m : program.mutations) {
          out << "  " << state_kind_name(m.kind) << ' ' << inert_text(m.target) << " <-";
          for (const std::string& node : m.nodes) out << ' ' << inert_text(node);
          for (std::size_t i = 0; i < m.aliases.size(); ++i)
            out << (i == 0 ? " (also named " : ", ") << inert_text(m.aliases[i]);
          if (!m.aliases.empty()) out << ')';
          out << '\n';
        }
        for (const MutationSummary& m : program.possible_mutations) {
          out << "  " << state_kind_name(m.kind) << ' ' << inert_text(m.target) << " may be written by";
          for (std::size_t i = 0; i < m.nodes.size(); ++i)
            out << (i ? ", `" : " `") << inert_text(m.ops[i]) << "` (node " << inert_text(m.nodes[i]) << ')';
          out << " (schema unknown)\n";
        }
      }
    }
  }
  if (options.closing_summary) out << closing_summary(count_findings(report)) << '\n';
}

}  // namespace pt2lint
