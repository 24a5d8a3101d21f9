#include "cli/command_output.h"

#include <iostream>

#include "cli/subcommand.h"
#include "cli/terminal.h"

namespace pt2lint {

CommandOutput::CommandOutput(const std::string& path) : path_(path) {
  if (to_stdout()) return;
  Expected<AtomicFile> created = AtomicFile::create(path);
  if (!created.ok()) {
    print_error(created.message());
    ok_ = false;
    return;
  }
  atomic_.emplace(std::move(created).value());
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
  if (Status committed = atomic_->commit(); !committed.ok()) {
    print_error(committed.message());
    return false;
  }
  committed_ = true;
  return true;
}

int write_command_output(const std::string& path, const std::function<void(std::ostream&)>& write) {
  CommandOutput output(path);
  if (!output.ok()) return kExitUsage;
  write(output.stream());
  return output.written() ? kExitClean : kExitUsage;
}

}  // namespace pt2lint
