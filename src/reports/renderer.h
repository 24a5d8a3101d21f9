// Renderers turn the findings of a run into one output format. They never decide anything.
// What every renderer shares; the formats and their renderers are listed in reports/formats.h.
#pragma once

#include <functional>
#include <optional>
#include <ostream>
#include <set>
#include <string>
#include <string_view>

#include "core/rule_registry.h"
#include "engine/run_report.h"

namespace pt2lint {

struct RenderOptions {
  const RuleRegistry* registry = nullptr;
  bool color = false;           // ANSI colours (text only)
  bool show_mutations = false;  // text: print each program's effective mutation set
  bool verbose = false;         // text: list ops without a known schema
  bool statistics = false;      // text: counts per rule
  bool closing_summary = true;  // text, concise: end with "N files checked: ..." (`check`)
  std::string source_root;      // for formats that map stack traces to source files
  bool baseline_active = false; // a baseline was applied: SARIF marks every result new/unchanged
  // The docs/rules/<name>.md page of a rule ("" when none); the pages are embedded in the
  // executable, not in the library, so the CLI hands them in.
  std::function<std::string_view(std::string_view rule_name)> rule_doc;
  // Where the rule pages live (`docs-url` in the config), ending in '/': links are
  // `<docs_url><rule-name>.md`. "" (the default): formats leave rule links out.
  std::string docs_url;
  // github: where the Markdown summary is appended ($GITHUB_STEP_SUMMARY), "" for nowhere.
  std::string step_summary_path;
  // markdown (and the github step summary): the name of the full report, e.g. the CI
  // artifact that holds the HTML or JSON report; the closing "N more findings in the full
  // report" line names it. "" for a generic pointer to `--format html`/`json`.
  std::string full_report;
  // `--changed-files`: the repository-relative paths a pull request changed. When set, the
  // review formats (github, sarif, rdjson, gitlab) anchor a finding at its Python source line
  // only when that file is in it, else at the checked file: code scanning and reviewdog drop
  // an annotation on a line the diff does not touch. Unset: the source line whenever known.
  std::optional<std::set<std::string>> changed_files;
};

class Renderer {
 public:
  virtual ~Renderer() = default;
  virtual void render(const RunReport& report, const RenderOptions& options,
                      std::ostream& out) const = 0;
};

// "output_specs[3], node index_copy, value getitem_3" (only the parts that are set).
std::string describe_location(const Location& location);

}  // namespace pt2lint
