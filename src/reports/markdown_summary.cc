#include "reports/markdown_summary.h"

#include <fmt/format.h>

#include <map>
#include <sstream>

#include "reports/escape/markdown_escape.h"
#include "reports/finding_anchor.h"
#include "reports/review_text.h"

namespace pt2lint {
namespace {

// At most `limit` bytes, cut at a UTF-8 character boundary, with an ellipsis when cut.
std::string clip(std::string text, std::size_t limit) {
  if (text.size() <= limit) return text;
  std::size_t end = limit;
  while (end > 0 && (static_cast<unsigned char>(text[end]) & 0xC0) == 0x80) --end;
  text.resize(end);
  return text + " …";
}

std::string_view badge(Severity severity) {
  return by_severity<std::string_view>(severity, ":information_source: note", ":warning: warning",
                                       ":x: error");
}

std::string_view section_title(Severity severity) {
  return by_severity<std::string_view>(severity, "Notes", "Warnings", "Errors");
}

std::string plural(std::size_t n, std::string_view word) {
  return std::to_string(n) + " " + std::string(word) + (n == 1 ? "" : "s");
}

// Appends to the report while it stays under the limit; a part that would not fit is
// refused whole, so the report never ends mid-row.
class Budget {
 public:
  explicit Budget(std::size_t limit) : limit_(limit) {}
  bool add(std::string_view part) {
    if (text_.size() + part.size() > limit_) return false;
    text_ += part;
    return true;
  }
  const std::string& text() const { return text_; }

 private:
  std::size_t limit_;
  std::string text_;
};

// The finding's words for one table cell: with its notes when the report has room for every
// entry with notes, else without (the message, the fix and the grouping stay).
std::string entry_text(const FileResult& file, const Finding& f, bool with_notes) {
  if (with_notes) return review_message(file, f, "\n");
  Finding bare = f;
  bare.notes.clear();
  return review_message(file, bare, "\n");
}

std::string entry_row(const FileResult& file, const Finding& f, const RenderOptions& options,
                      bool with_notes) {
  FindingAnchor anchor = anchor_finding(file, f, options.source_root);
  // Names from the file go into code spans no backtick in them can end, messages through
  // markdown_message (reports/escape/markdown_escape.h): nothing renders as a link, image,
  // mention or table structure.
  std::string where = markdown_code(anchor.artifact);
  if (anchor.source) where += "<br>" + markdown_code(fmt::format("{}:{}", anchor.source->path, anchor.source->line));
  const std::string rule = fmt::format("{} {}", f.rule_id, f.rule_name);
  const std::string uri = rule_help_uri(options.docs_url, f.rule_name);
  return fmt::format("| {}{} | {} | {} | {} | {} |\n", badge(f.severity),
                     f.baselined ? " (baseline)" : "", uri.empty() ? rule : fmt::format("[{}]({})", rule, uri),
                     where, f.program.empty() ? std::string() : markdown_code(f.program),
                     markdown_message(clip(entry_text(file, f, with_notes), kMaxMarkdownMessage)));
}

std::string picture_block(const FileResult& file, const Finding& f, std::size_t number) {
  return fmt::format("\n<details><summary>{} {} in <code>{}</code>{}{} (finding {})</summary>\n\n",
                     f.rule_id, f.rule_name, markdown_html_text(file.path), f.program.empty() ? "" : ":",
                     markdown_html_text(f.program), number) +
         f.picture + "\n</details>\n";
}

// The findings an entry stands for: itself and, for a primary, the findings it explains.
std::size_t represented(const Finding& f) { return 1 + f.related.size(); }

// Room kept for the line that says the notes were left out.
constexpr std::size_t kNotesLineReserve = 128;

struct EntryTable {
  std::string text;
  std::size_t shown = 0;  // findings represented: entries and the findings they explain
  bool full = false;      // an entry did not fit
  bool notes = true;
};

EntryTable entry_table(const RunReport& report, const RenderOptions& options, std::size_t room,
                       bool with_notes) {
  EntryTable table;
  table.notes = with_notes;
  Budget md(room);
  for (Severity severity : {Severity::kError, Severity::kWarning, Severity::kNote}) {
    bool section_open = false;
    for (const FileResult& file : report.files) {
      for (const Finding& f : file.findings) {
        if (table.full || f.severity != severity || !shown_once_per_cause(f)) continue;
        std::string row = entry_row(file, f, options, with_notes);
        if (!section_open) {
          row = fmt::format("\n### {}\n\n| Severity | Rule | File | Program | Finding |\n|---|---|---|---|---|\n",
                            section_title(severity)) + row;
        }
        if (!md.add(row)) {
          table.full = true;
          continue;
        }
        section_open = true;
        table.shown += represented(f);
      }
    }
  }
  if (!with_notes && !md.text().empty())
    table.text = "\nNotes are left out here to fit GitHub's limit; the full report has them.\n";
  table.text += md.text();
  return table;
}

}  // namespace

void write_markdown_report(const RunReport& report, const RenderOptions& options,
                           std::ostream& out) {
  ReportCounts counts = count_findings(report);
  const std::size_t total = counts.errors + counts.warnings + counts.notes;
  std::size_t entries = 0;
  std::map<std::pair<std::string, std::string>, std::size_t> per_rule;
  for (const FileResult& file : report.files) {
    for (const Finding& f : file.findings) {
      ++per_rule[{f.rule_id, f.rule_name}];
      if (shown_once_per_cause(f)) ++entries;
    }
  }

  std::string head = "## pt2lint\n\n" + plural(counts.files, "file") + " checked: " +
                     plural(counts.errors, "error") + ", " + plural(counts.warnings, "warning") +
                     ", " + plural(counts.notes, "note");
  if (counts.baselined > 0) head += " (" + std::to_string(counts.baselined) + " in the baseline)";
  head += ".\n";
  if (total == 0) {
    out << head << "\nNo findings.\n";
    return;
  }
  if (entries < total)
    head += fmt::format("\n{} in {}: a root cause is one entry, with the findings it explains.\n",
                        plural(total, "finding"), std::to_string(entries) + (entries == 1 ? " entry" : " entries"));
  head += "\n| Rule | Findings |\n|---|---|\n";
  for (const auto& [rule, count] : per_rule)
    head += fmt::format("| {} {} | {} |\n", rule.first, rule.second, count);

  // Entries by severity, most severe first, each in report order; once one does not fit,
  // neither does anything after it. Notes are dropped from every entry when keeping them
  // would leave entries out.
  Budget md(kMaxMarkdownChars - kMarkdownClosingReserve);
  md.add(head);
  std::size_t room = kMaxMarkdownChars - kMarkdownClosingReserve - md.text().size() - kNotesLineReserve;
  EntryTable table = entry_table(report, options, room, /*with_notes=*/true);
  if (table.full) {
    EntryTable bare = entry_table(report, options, room, /*with_notes=*/false);
    if (bare.shown > table.shown) table = std::move(bare);
  }
  md.add(table.text);
  const bool full = table.full;
  const std::size_t shown = table.shown;

  // Pictures of the primaries that were shown, while they fit.
  std::size_t drawn = 0, drawable = 0;
  for (const FileResult& file : report.files) {
    std::size_t number = 0;  // as `pt2lint graph FILE --finding N` counts
    for (const Finding& f : file.findings) {
      ++number;
      if (f.picture.empty() || !shown_once_per_cause(f)) continue;
      ++drawable;
      if (full || drawn == kMaxMarkdownPictures) continue;
      std::string block = (drawn == 0 ? "\n### Pictures\n" : "") + picture_block(file, f, number);
      if (md.add(block)) ++drawn;
    }
  }

  out << md.text();
  if (drawable > drawn)
    out << fmt::format("\n{} more {} not shown: `pt2lint graph FILE --finding N` draws any finding.\n",
                       drawable - drawn, drawable - drawn == 1 ? "picture is" : "pictures are");
  if (shown < total) {
    out << "\n**" << (total - shown) << " more findings in the full report";
    if (!options.full_report.empty())
      out << " (" << markdown_code(clip(options.full_report, 200)) << ")";
    else
      out << " (`pt2lint check` with `--format html` or `--format json`)";
    out << ".**\n";
  }
}

}  // namespace pt2lint
