// Subgraph calls on real programs: the positional layouts pt2lint assumes for each
// higher-order op bind every subgraph of the device-exported programs (PyTorch 2.11), and the
// effective mutation set of each TRAINING program, writes inside subgraphs included, equals
// the write-backs PyTorch's functionalization gave its ATEN twin.
#include <gtest/gtest.h>

#include <algorithm>
#include <filesystem>
#include <set>
#include <string>

#include "analysis/dataflow/effective_mutations.h"
#include "analysis/dataflow/program_dataflow.h"
#include "analysis/dataflow/subgraph_calls.h"
#include "analysis/program_index.h"
#include "io/readers/load_file.h"
#include "lowering/functionalize.h"

namespace pt2lint {
namespace {

namespace fs = std::filesystem;
const fs::path kData = fs::path(PT2LINT_TESTS_DIR) / "data";
using TargetSet = std::set<std::pair<std::string, std::string>>;

ir::Program load_one(const fs::path& path) {
  LoadedFile loaded;
  CollectingSink sink;
  EXPECT_EQ(load_file(path, LoadOptions{}, loaded, sink), LoadOutcome::kLoaded) << path;
  EXPECT_EQ(loaded.programs.size(), 1u) << path;
  return loaded.programs.empty() ? ir::Program{} : std::move(loaded.programs[0]);
}

std::vector<fs::path> files(const fs::path& folder, const std::string& suffix) {
  std::vector<fs::path> out;
  for (const auto& entry : fs::directory_iterator(folder)) {
    const std::string name = entry.path().filename().string();
    if (name.ends_with(suffix) && (suffix != ".pt2" || !name.ends_with(".aten.pt2"))) out.push_back(entry.path());
  }
  std::sort(out.begin(), out.end());
  return out;
}

TEST(SubgraphCalls, EveryHigherOrderOpOfTheRealProgramsBindsItsSubgraphs) {
  std::set<std::string> ops;
  std::vector<fs::path> paths = files(kData / "device" / "subgraphs", ".pt2");
  for (const fs::path& p : files(kData / "subgraphs" / "textproto", ".textproto")) paths.push_back(p);
  for (const fs::path& path : paths) {
    const ir::Program program = load_one(path);
    const ProgramIndex index(program);
    for (int n : index.subgraph_nodes()) {
      const dataflow::SubgraphCall call = dataflow::bind_subgraph_call(index.graph().nodes(n));
      EXPECT_TRUE(call.known) << path << ": " << call.op;
      for (const dataflow::SubgraphBinding& sub : call.subgraphs) {
        EXPECT_TRUE(sub.bound) << path << ": subgraph " << sub.name << " of " << call.op;
        EXPECT_EQ(static_cast<int>(sub.inputs.size()), sub.graph->inputs_size());
      }
      ops.insert(std::string(call.op));
    }
  }
  EXPECT_EQ(ops, (std::set<std::string>{"associative_scan", "cond", "flex_attention", "invoke_subgraph", "map_impl", "scan",
                                        "while_loop", "wrap_with_autocast", "wrap_with_set_grad_enabled"}));
}

TEST(SubgraphCalls, MutationSetOfEachTrainingProgramEqualsItsAtenTwinsWriteBacks) {
  int pairs = 0;
  for (const fs::path& training : files(kData / "device" / "subgraphs", ".pt2")) {
    fs::path aten = training;
    aten.replace_extension(".aten.pt2");
    if (!fs::exists(aten)) continue;
    ++pairs;
    const ir::Program program = load_one(training);
    const ProgramIndex index(program);
    dataflow::ProgramDataflow flow(index);
    TargetSet mine, theirs;
    for (const dataflow::StateWrite& write : dataflow::effective_mutations(index, flow.ops(), flow.tracer()))
      mine.emplace(std::string(state_kind_name(write.kind)), std::string(write.target));
    const ir::Program twin = load_one(aten);
    for (const ir::OutputSpec& spec : twin.program().graph_module().signature().output_specs()) {
      if (spec.has_buffer_mutation()) theirs.emplace("buffer", spec.buffer_mutation().buffer_name());
      if (spec.has_user_input_mutation()) theirs.emplace("user_input", spec.user_input_mutation().user_input_name());
      if (spec.has_parameter_mutation()) theirs.emplace("parameter", spec.parameter_mutation().parameter_name());
    }
    EXPECT_EQ(mine, theirs) << training;
  }
  EXPECT_GE(pairs, 15);
}

TEST(SubgraphCalls, AWriteInsideAGradModeRegionIsAWriteOfTheBoundState) {
  const ir::Program program = load_one(kData / "device" / "subgraphs" / "no_grad_write.pt2");
  const ProgramIndex index(program);
  dataflow::ProgramDataflow flow(index);
  const std::vector<dataflow::InPlaceWrite> writes = dataflow::in_place_writes(index, flow.ops(), flow.tracer());
  ASSERT_EQ(writes.size(), 1u);
  EXPECT_EQ(index.graph().nodes(writes[0].node).target(), "torch.ops.higher_order.wrap_with_set_grad_enabled");
  EXPECT_EQ(flow.state(writes[0].placeholder).target, "steps");
  EXPECT_NE(writes[0].via.find("aten.add_.Tensor"), std::string::npos) << writes[0].via;
}

TEST(SubgraphCalls, AnUnknownOpOrAnUnfittingBindingIsUndecidableNotUnwritten) {
  const fs::path golden = fs::path(PT2LINT_TESTS_DIR) / "golden" / "dataflow" / "subgraph-writes-decidable";
  const ir::Program unknown = load_one(golden / "bad_unknown_op_writes_buffer.textproto");
  const ProgramIndex index(unknown);
  dataflow::ProgramDataflow flow(index);
  const dataflow::SubgraphWrites writes = dataflow::subgraph_call_writes(index, flow.tracer());
  EXPECT_TRUE(writes.writes.empty());
  ASSERT_EQ(writes.possible.size(), 1u);
  EXPECT_EQ(flow.state(writes.possible[0].placeholder).target, "steps");

  // The same region as a known op with one operand too many: the binding does not fit.
  ir::Program unfitting = load_one(golden / "good_grad_region_writes_buffer.textproto");
  ir::Node& call = *unfitting.mutable_program()->mutable_graph_module()->mutable_graph()->mutable_nodes(0);
  *call.add_inputs() = call.inputs(2);
  const ProgramIndex index2(unfitting);
  dataflow::ProgramDataflow flow2(index2);
  const dataflow::SubgraphWrites writes2 = dataflow::subgraph_call_writes(index2, flow2.tracer());
  EXPECT_TRUE(writes2.writes.empty());
  EXPECT_EQ(writes2.possible.size(), 1u);
}

}  // namespace
}  // namespace pt2lint

namespace pt2lint {
namespace {

TEST(SubgraphCalls, ACallThatReturnsItsOperandReturnsTheStateItself) {
  const ir::Program program =
      load_one(kData / "subgraphs" / "textproto" / "grad_region_output_written_after.textproto");
  const ProgramIndex index(program);
  dataflow::ProgramDataflow flow(index);
  // `getitem`, the region's output, is buffer `steps`: mul_ on it writes `steps`.
  EXPECT_EQ(flow.state(flow.tracer().alias_root("getitem").placeholder).target, "steps");
  const auto writes = dataflow::effective_mutations(index, flow.ops(), flow.tracer());
  ASSERT_EQ(writes.size(), 1u);
  ASSERT_EQ(writes[0].nodes.size(), 2u);
  EXPECT_EQ(index.node_name(writes[0].nodes[1]), "mul_");

  // Lowered, the value written back is mul's, computed from the region's new value of steps.
  ir::Program lowered = program;
  ASSERT_TRUE(lowering::functionalize(lowered).ok());
  const ir::GraphModule& module = lowered.program().graph_module();
  ASSERT_TRUE(module.signature().output_specs(0).has_buffer_mutation());
  const std::string written = module.signature().output_specs(0).buffer_mutation().arg().name();
  for (const ir::Node& node : module.graph().nodes()) {
    if (node.name() != written) continue;
    EXPECT_EQ(node.target(), "torch.ops.aten.mul.Tensor");
    EXPECT_NE(node.inputs(0).arg().as_tensor().name(), "getitem");  // the new value, not the stale output
  }
}

}  // namespace
}  // namespace pt2lint
