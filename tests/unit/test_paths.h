// Where the unit tests find their data: the folders tests/CMakeLists.txt passes as compile
// definitions. One definition, so that test files batched into one unity source agree.
#pragma once

#include <filesystem>

namespace pt2lint::test_paths {

inline const std::filesystem::path kCorpus = PT2LINT_CORPUS_DIR;

}  // namespace pt2lint::test_paths
