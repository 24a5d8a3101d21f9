#include "reports/markdown_pictures.h"

#include <fmt/format.h>

#include "reports/escape/markdown_escape.h"

namespace pt2lint {

void write_markdown_pictures(const RunReport& report, std::ostream& out) {
  std::size_t drawn = 0, total = 0;
  for (const FileResult& file : report.files) {
    std::size_t number = 0;  // as `pt2lint graph FILE --finding N` counts
    for (const Finding& f : file.findings) {
      ++number;
      if (f.picture.empty()) continue;
      ++total;
      if (drawn == kMaxMarkdownPictures) continue;
      if (drawn++ == 0) out << "\n### Pictures\n";
      out << fmt::format("\n<details><summary>{} {} in <code>{}</code>{}{} (finding {})</summary>\n\n",
                         f.rule_id, f.rule_name, markdown_html_text(file.path),
                         f.program.empty() ? "" : ":", markdown_html_text(f.program),
                         number)
          << f.picture << "\n</details>\n";
    }
  }
  if (total > drawn)
    out << fmt::format("\n{} more pictures are not shown: `pt2lint graph FILE --finding N` draws any "
                       "finding.\n", total - drawn);
}

}  // namespace pt2lint
