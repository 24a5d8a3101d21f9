#include "io/readers/loaded_programs.h"

#include <iostream>

#include <fmt/format.h>

#include "core/diagnostic_sink.h"
#include "io/readers/load_file.h"

namespace pt2lint {

bool LoadedPrograms::has_errors() const {
  for (const Finding& finding : findings)
    if (finding.severity == Severity::kError) return true;
  return false;
}

LoadedPrograms load_programs(const std::filesystem::path& path) {
  LoadedPrograms out;
  CollectingSink sink;
  LoadedFile file;
  const LoadOutcome outcome = load_file(path, LoadOptions{}, file, sink);
  out.findings = sink.take();
  if (outcome == LoadOutcome::kUnreadable) {
    out.error = file.error.empty() ? "cannot read '" + path.string() + "'" : file.error;  // names the file
    return out;
  }
  out.readable = true;
  out.programs = std::move(file.programs);
  return out;
}

void print_load_findings(const std::filesystem::path& path, const LoadedPrograms& loaded) {
  for (const Finding& finding : loaded.findings) {
    std::cerr << fmt::format("{}{}{}: {}: {} [{} {}]\n", path.string(), finding.program.empty() ? "" : ":",
                             finding.program, severity_name(finding.severity), finding.message,
                             finding.rule_id, finding.rule_name);
    for (const Note& note : finding.notes) std::cerr << "  note: " << note.text << '\n';
  }
}

}  // namespace pt2lint
