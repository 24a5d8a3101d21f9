#include "cli/command_output.h"

#include <iostream>

#include "cli/terminal.h"

namespace pt2lint {

CommandOutput::CommandOutput(const std::string& path) : path_(path) {
  if (to_stdout()) return;
  file_.open(path);
  if (!file_) {
    print_error("cannot write '" + path + "'");
    ok_ = false;
  }
}

std::ostream& CommandOutput::stream() { return to_stdout() ? std::cout : file_; }

bool CommandOutput::written() {
  if (to_stdout() || file_) return true;
  print_error("cannot write '" + path_ + "'");
  return false;
}

}  // namespace pt2lint
