// `-o FILE`: where check, graph and reduce write their result, standard output when no FILE
// is given, with the one "cannot write" refusal.
#pragma once

#include <fstream>
#include <functional>
#include <optional>
#include <ostream>
#include <string>

#include "support/atomic_file.h"

namespace pt2lint {

class CommandOutput {
 public:
  // Opens `path` for writing ("" for standard output); on failure prints
  // "pt2lint: error: cannot write 'PATH'" (or why pt2lint refuses that path) and ok() is false.
  // FILE is written through an AtomicFile: whole, or left as it was.
  explicit CommandOutput(const std::string& path);

  bool ok() const { return ok_; }
  bool to_stdout() const { return path_.empty(); }
  std::ostream& stream();
  // After writing: puts FILE in place; false, having printed "cannot write 'PATH'", when a
  // write to FILE failed (FILE is then unchanged).
  // Standard output is not second-guessed: a closed pipe is the reader's choice.
  // Idempotent: a second call after a successful one returns true.
  bool written();

 private:
  std::string path_;
  std::optional<AtomicFile> atomic_;
  std::ofstream file_;
  bool ok_ = true;
  bool committed_ = false;  // written() already put the file in place
};

// A command's whole result: opens `path` as CommandOutput does, lets `write` fill its stream,
// then puts the file in place. kExitClean, or kExitUsage once the refusal is printed.
int write_command_output(const std::string& path, const std::function<void(std::ostream&)>& write);

}  // namespace pt2lint
