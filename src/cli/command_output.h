// `-o FILE`: where check, graph and reduce write their result, standard output when no FILE
// is given, with the one "cannot write" refusal.
#pragma once

#include <fstream>
#include <ostream>
#include <string>

namespace pt2lint {

class CommandOutput {
 public:
  // Opens `path` for writing ("" for standard output); on failure prints
  // "pt2lint: error: cannot write 'PATH'" and ok() is false.
  explicit CommandOutput(const std::string& path);

  bool ok() const { return ok_; }
  bool to_stdout() const { return path_.empty(); }
  std::ostream& stream();
  // After writing: false, having printed "cannot write 'PATH'", when a write to FILE failed.
  // Standard output is not second-guessed: a closed pipe is the reader's choice.
  bool written();

 private:
  std::string path_;
  std::ofstream file_;
  bool ok_ = true;
};

}  // namespace pt2lint
