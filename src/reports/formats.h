// The report formats that `--format` names, one row each, with everything the tool asks of a
// format: which renderer writes it, whether it is JSON, coloured, drawn, and so on. Nothing
// outside this table compares a format's name to decide what to do with it (the report
// property names json and sarif only to check their documents' own keys): a new format is
// one row in formats.cc and one renderer file.
#pragma once

#include <memory>
#include <span>
#include <string>
#include <string_view>
#include <vector>

#include "reports/graph/picture_language.h"
#include "reports/renderer.h"

namespace pt2lint {

struct ReportFormat {
  std::string_view name;  // what --format takes
  std::unique_ptr<Renderer> (*make)() = nullptr;
  // The output is one JSON document (json, sarif, rdjson, gitlab).
  bool json = false;
  // Written to a terminal, it is coloured (--color, NO_COLOR, FORCE_COLOR).
  bool colour = false;
  // --statistics replaces the report with the counts per rule; the other formats keep the
  // report and write the counts to stderr, so that stdout stays one document.
  bool statistics = false;
  // --quiet silences the report on stdout (the exit code says it all); the other formats
  // are asked for by name and always written.
  bool quiet = false;
  // What each finding's picture is drawn in; kNone: no pictures, at no cost.
  graph::PictureLanguage pictures = graph::PictureLanguage::kNone;
  // `check` also appends the Markdown summary to $GITHUB_STEP_SUMMARY when it is set.
  bool step_summary = false;
  // `diff` writes its own page, the contract diff of both programs, instead of the findings.
  bool diff_page = false;
  // `diff`'s "learned from ..." notes may share stdout with the report: prose a reader skims.
  // In the other formats stdout is parsed, and the notes go to stderr.
  bool notes_on_stdout = false;
  // Read line by line in terminals and CI logs: no raw control byte, and no line that a name
  // begins and GitHub would run as a workflow command (checked by the report property).
  bool log_lines = false;
  // The report itself is GitHub workflow commands (`::error title=...`): only its own lines may
  // start with '::' (checked by the report property).
  bool workflow_commands = false;
};

// Every format, in the order `--help` lists them.
std::span<const ReportFormat> report_formats();
// The row of `name`; nullptr for an unknown format name.
const ReportFormat* find_format(std::string_view name);
// The renderer of `name`; nullptr for an unknown format name.
std::unique_ptr<Renderer> make_renderer(std::string_view name);
// The names, for the CLI's list of valid --format values.
std::vector<std::string> format_names();

}  // namespace pt2lint
