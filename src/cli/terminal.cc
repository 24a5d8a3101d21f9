#include "cli/terminal.h"

#include <unistd.h>

#include <cstdlib>
#include <iostream>

#include <fmt/format.h>

#include "reports/escape/text_escape.h"

namespace pt2lint {
namespace {

// Above this many files a run on a terminal shows how far it has got.
constexpr std::size_t kProgressThreshold = 20;

}  // namespace

// Messages quote paths and names from the command line, configs and files: written inert
// (reports/escape/text_escape.h), as the text report writes them, so a file named with a
// newline cannot start a line of its own in a CI log (`::add-mask::`) or move the cursor.
void print_error(std::string_view message) { std::cerr << "pt2lint: error: " << inert_text(message) << '\n'; }

void print_warning(std::string_view message) { std::cerr << "pt2lint: warning: " << inert_text(message) << '\n'; }

bool color_on_stdout(bool coloured_format, std::string_view choice) {
  if (!coloured_format) return false;
  if (choice == "always") return true;
  if (choice == "never") return false;
  const char* no_color = std::getenv("NO_COLOR");
  if (no_color != nullptr && *no_color != '\0') return false;
  const char* force = std::getenv("FORCE_COLOR");
  if (force != nullptr && *force != '\0' && std::string_view(force) != "0" &&
      std::string_view(force) != "false")
    return true;
  return isatty(STDOUT_FILENO) != 0;
}

ProgressLine::ProgressLine(bool wanted) : enabled_(wanted && isatty(STDERR_FILENO) != 0) {}

ProgressLine::~ProgressLine() {
  if (shown_) std::cerr << "\r\x1b[K" << std::flush;
}

void ProgressLine::file_done(std::size_t done, std::size_t total) {
  if (!enabled_ || total <= kProgressThreshold) return;
  shown_ = true;
  std::cerr << fmt::format("\rpt2lint: checked {}/{} files", done, total) << std::flush;
}

}  // namespace pt2lint
