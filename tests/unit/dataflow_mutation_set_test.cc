// The effective mutation set of every TRAINING program in the corpus equals what PyTorch's
// own functionalization wrote into its `.aten` twin: the buffer_mutation /
// user_input_mutation / parameter_mutation targets.
#include <gtest/gtest.h>

#include <filesystem>
#include <map>
#include <set>
#include <string>
#include <utility>

#include "analysis/dataflow/effective_mutations.h"
#include "analysis/dataflow/program_dataflow.h"
#include "analysis/program_index.h"
#include "io/readers/load_file.h"
#include "test_paths.h"

namespace pt2lint {
namespace {

namespace fs = std::filesystem;
using TargetSet = std::set<std::pair<std::string, std::string>>;  // (kind, target)

using test_paths::kCorpus;

std::map<std::string, ir::Program> load_programs(const fs::path& path) {
  LoadedFile loaded;
  CollectingSink sink;
  LoadOptions options;
  EXPECT_EQ(load_file(path, options, loaded, sink), LoadOutcome::kLoaded) << path;
  EXPECT_FALSE(sink.has_errors()) << path;
  std::map<std::string, ir::Program> by_name;
  for (ir::Program& program : loaded.programs) by_name.emplace(program.name(), std::move(program));
  return by_name;
}

TargetSet effective_set(const ir::Program& program) {
  ProgramIndex index(program);
  dataflow::ProgramDataflow flow(index);
  TargetSet set;
  for (const dataflow::StateWrite& write : dataflow::effective_mutations(index, flow.ops(), flow.tracer()))
    set.emplace(std::string(state_kind_name(write.kind)), std::string(write.target));
  return set;
}

TargetSet declared_write_backs(const ir::Program& program) {
  TargetSet set;
  for (const ir::OutputSpec& spec : program.program().graph_module().signature().output_specs()) {
    if (spec.has_buffer_mutation()) set.emplace("buffer", spec.buffer_mutation().buffer_name());
    if (spec.has_parameter_mutation()) set.emplace("parameter", spec.parameter_mutation().parameter_name());
    if (spec.has_user_input_mutation()) set.emplace("user_input", spec.user_input_mutation().user_input_name());
  }
  return set;
}

// (TRAINING file, ATEN twin) for every pair in base/ and multi/.
std::vector<std::pair<fs::path, fs::path>> twin_pairs() {
  std::vector<std::pair<fs::path, fs::path>> pairs;
  for (const char* folder : {"base", "multi"}) {
    if (!fs::is_directory(kCorpus / folder)) continue;
    for (const auto& entry : fs::directory_iterator(kCorpus / folder)) {
      std::string name = entry.path().filename().string();
      if (!name.ends_with(".pt2") || name.ends_with(".aten.pt2")) continue;
      fs::path twin = entry.path().parent_path() / (name.substr(0, name.size() - 4) + ".aten.pt2");
      if (fs::exists(twin)) pairs.emplace_back(entry.path(), twin);
    }
  }
  std::sort(pairs.begin(), pairs.end());
  return pairs;
}

TEST(EffectiveMutationSet, EqualsTheWriteBacksOfEveryAtenTwin) {
  if (!fs::is_directory(kCorpus / "base")) GTEST_SKIP() << "corpus not found at " << kCorpus;
  auto pairs = twin_pairs();
  ASSERT_GE(pairs.size(), 5u) << "expected the five base pairs";
  for (const auto& [training_path, aten_path] : pairs) {
    auto training = load_programs(training_path);
    auto aten = load_programs(aten_path);
    ASSERT_EQ(training.size(), aten.size()) << training_path;
    for (const auto& [name, program] : training) {
      ASSERT_TRUE(aten.count(name)) << aten_path << " has no program " << name;
      EXPECT_EQ(ProgramIndex(program).dialect(), Dialect::kTraining) << training_path;
      const TargetSet expected = declared_write_backs(aten.at(name));
      EXPECT_FALSE(expected.empty()) << aten_path;
      EXPECT_EQ(effective_set(program), expected) << training_path << ":" << name;
      // The ATEN program's own effective set is its declared write-backs.
      EXPECT_EQ(effective_set(aten.at(name)), expected) << aten_path << ":" << name;
    }
  }
}

TEST(EffectiveMutationSet, NamesTheWritingNodes) {
  if (!fs::is_directory(kCorpus / "base")) GTEST_SKIP() << "corpus not found at " << kCorpus;
  auto programs = load_programs(kCorpus / "base" / "conv_bn_train.pt2");
  const ir::Program& program = programs.begin()->second;
  ProgramIndex index(program);
  dataflow::ProgramDataflow flow(index);
  std::map<std::string, std::vector<std::string>> nodes;
  for (const auto& write : dataflow::effective_mutations(index, flow.ops(), flow.tracer()))
    for (int n : write.nodes) nodes[std::string(write.target)].emplace_back(index.node_name(n));
  EXPECT_EQ(nodes["1.running_mean"], std::vector<std::string>{"batch_norm"});
  EXPECT_EQ(nodes["1.num_batches_tracked"], std::vector<std::string>{"add_"});
  EXPECT_EQ(nodes["4.running_var"], std::vector<std::string>{"batch_norm_1"});
}

}  // namespace
}  // namespace pt2lint
