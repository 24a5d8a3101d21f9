// Renderers turn the findings of a run into one output format. They never decide anything.
#pragma once

#include <memory>
#include <ostream>
#include <string>
#include <string_view>
#include <vector>

#include "verifier/engine.h"
#include "verifier/rule_registry.h"

namespace pt2lint {

struct RunReport {
  std::vector<FileResult> files;  // in a stable order (sorted by path)
};

struct ReportCounts {
  std::size_t files = 0, errors = 0, warnings = 0, notes = 0;
};
ReportCounts count_findings(const RunReport& report);

struct RenderOptions {
  const RuleRegistry* registry = nullptr;
  bool color = false;           // ANSI colours (text only)
  bool show_mutations = false;  // text: print each program's effective mutation set
  bool statistics = false;      // text: counts per rule
  std::string source_root;      // for formats that map stack traces to source files
};

class Renderer {
 public:
  virtual ~Renderer() = default;
  virtual void render(const RunReport& report, const RenderOptions& options,
                      std::ostream& out) const = 0;
};

// nullptr for an unknown format name.
std::unique_ptr<Renderer> make_renderer(std::string_view format);
std::vector<std::string_view> renderer_names();

// "output_specs[3], node index_copy, value getitem_3" (only the parts that are set).
std::string describe_location(const Location& location);

}  // namespace pt2lint
