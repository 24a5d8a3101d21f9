// Loading for the commands that transform or compare programs (lower, contract, diff):
// they need every program of a file, and must refuse a file the loader found broken.
#pragma once

#include <filesystem>
#include <string>
#include <vector>

#include "program.pb.h"
#include "core/finding.h"

namespace pt2lint {

struct LoadedPrograms {
  bool readable = false;          // false: `error` says why the path could not be read
  std::string error;
  std::vector<ir::Program> programs;
  std::vector<Finding> findings;  // what the loader reported
  bool has_errors() const;        // an error-severity load finding: do not trust the programs
  // Readable, not broken and not empty: a command may transform or compare the programs.
  bool usable() const { return readable && !has_errors() && !programs.empty(); }
};

LoadedPrograms load_programs(const std::filesystem::path& path);

// Prints the load findings compiler-style on stderr, for a command that refuses the file.
void print_load_findings(const std::filesystem::path& path, const LoadedPrograms& loaded);

}  // namespace pt2lint
