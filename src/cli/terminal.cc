#include "cli/terminal.h"

#include <unistd.h>

#include <cstdlib>
#include <iostream>

#include <fmt/format.h>

namespace pt2lint {
namespace {

// Above this many files a run on a terminal shows how far it has got.
constexpr std::size_t kProgressThreshold = 20;

}  // namespace

void print_error(std::string_view message) { std::cerr << "pt2lint: error: " << message << '\n'; }

void print_warning(std::string_view message) { std::cerr << "pt2lint: warning: " << message << '\n'; }

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
