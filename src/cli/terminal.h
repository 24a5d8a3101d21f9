// What every command shares about the terminal it talks to: the one error line format, the
// one colour decision, and the progress line of long runs.
#pragma once

#include <cstddef>
#include <string_view>

namespace pt2lint {

// "pt2lint: error: MESSAGE" on stderr.
void print_error(std::string_view message);

// "pt2lint: warning: MESSAGE" on stderr.
void print_warning(std::string_view message);

// Whether a report written to standard output is coloured: only in a format that colours
// (ReportFormat::colour, given as `coloured_format`). `choice` is --color: "always", "never", or "auto" (the default): then
// never when NO_COLOR is set to anything (no-color.org), always when FORCE_COLOR is set to
// anything but "0" or "false" (force-color.org), else only on a terminal.
bool color_on_stdout(bool coloured_format, std::string_view choice = "auto");

// "pt2lint: checked 12/140 files" on stderr, rewritten in place; only on a terminal and
// only for runs of more files than a glance takes. Cleared when it goes out of scope.
class ProgressLine {
 public:
  explicit ProgressLine(bool wanted);
  ~ProgressLine();
  ProgressLine(const ProgressLine&) = delete;
  ProgressLine& operator=(const ProgressLine&) = delete;

  void file_done(std::size_t done, std::size_t total);

 private:
  bool enabled_;
  bool shown_ = false;
};

}  // namespace pt2lint
