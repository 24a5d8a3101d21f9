#include "cli/command_output.h"

#include <iostream>

#include "cli/terminal.h"

namespace pt2lint {

CommandOutput::CommandOutput(const std::string& path) : path_(path) {
  if (to_stdout()) return;
  atomic_ = std::make_unique<AtomicFile>(path);
  if (!atomic_->ok()) {
    print_error(atomic_->error());
    ok_ = false;
    return;
  }
  file_.open(atomic_->temporary(), std::ios::binary | std::ios::trunc);
  if (!file_) {
    print_error("cannot write '" + path + "'");
    ok_ = false;
  }
}

std::ostream& CommandOutput::stream() { return to_stdout() ? std::cout : file_; }

bool CommandOutput::written() {
  if (to_stdout() || committed_) return true;
  if (file_.is_open()) file_.close();
  if (!ok_ || !file_) {
    print_error("cannot write '" + path_ + "'; it is unchanged");
    return false;
  }
  if (!atomic_->commit()) {
    print_error(atomic_->error());
    return false;
  }
  committed_ = true;
  return true;
}

}  // namespace pt2lint
