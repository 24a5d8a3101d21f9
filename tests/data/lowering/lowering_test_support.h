// Helpers shared by the writer, lowering and contract tests: corpus paths, loading a file
// into programs, and the TRAINING/ATEN pairs PyTorch's own functionalization produced.
#pragma once

#include <gtest/gtest.h>

#include <filesystem>
#include <string>
#include <vector>

#include "io/readers/load_file.h"
#include "core/diagnostic_sink.h"

namespace pt2lint::lowering_testing {

inline std::filesystem::path corpus() { return PT2LINT_CORPUS_DIR; }
inline bool have_corpus() { return std::filesystem::exists(corpus() / "labels.jsonl"); }

inline const std::vector<std::string>& training_aten_pairs() {
  static const std::vector<std::string> kPairs = {"counter", "user_input_mutation", "dict_out",
                                                  "kv_nested_2l", "conv_bn_train"};
  return kPairs;
}

// Loads every program of a file; fails the test on any error finding.
inline std::vector<ir::Program> load_clean(const std::filesystem::path& path) {
  CollectingSink sink;
  LoadedFile file;
  const LoadOutcome outcome = load_file(path, LoadOptions{}, file, sink);
  EXPECT_EQ(outcome, LoadOutcome::kLoaded) << path << ": " << file.error;
  EXPECT_FALSE(sink.has_errors()) << path << ": " << (sink.findings().empty() ? "" : sink.findings()[0].message);
  return std::move(file.programs);
}

inline std::filesystem::path temp_path(const std::string& name) {
  return std::filesystem::temp_directory_path() / ("pt2lint_lowering_" + std::to_string(::getpid()) + "_" + name);
}

}  // namespace pt2lint::lowering_testing
