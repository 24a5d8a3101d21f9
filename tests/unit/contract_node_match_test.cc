// diff pairs nodes by what they are (op, module path, origin, name), never by position: one
// inserted node shifts no pair.
#include <gtest/gtest.h>

#include <string>
#include <utility>
#include <vector>

#include "contract/node_diff.h"

namespace pt2lint {
namespace {

// A node `name` of op `target` in module `module` ("" for none) made from first-graph node `root`.
void add_matchable_node(ir::Graph& graph, const std::string& target, const std::string& name,
                        const std::string& module, const std::string& root) {
  ir::Node* node = graph.add_nodes();
  node->set_target(target);
  node->set_name(name);
  node->add_outputs()->mutable_as_tensor()->set_name(name);
  if (!module.empty()) {
    ir::StringEntry* stack = node->add_metadata();
    stack->set_key("nn_module_stack");
    stack->set_value("L__self__,,Net;L__self__" + module + "," + module + ",torch.nn.Module");
  }
  if (!root.empty()) {
    ir::StringEntry* from = node->add_metadata();
    from->set_key("from_node");
    from->set_value("[{\"name\": \"" + root + "\", \"target\": \"x\", \"from_node\": []}]");
  }
}

std::vector<std::pair<int, int>> pairs_of(const ir::Graph& before, const ir::Graph& after) {
  return match_nodes(before, after).pairs;
}

TEST(NodeMatching, AnInsertedNodeShiftsNoPair) {
  ir::Graph before, after;
  add_matchable_node(after, "torch.ops.aten.clone.default", "clone", "", "");
  for (ir::Graph* g : {&before, &after}) {
    add_matchable_node(*g, "torch.ops.aten.convolution.default", "convolution", "conv", "conv2d");
    add_matchable_node(*g, "torch.ops.aten.relu.default", "relu", "act", "relu");
    add_matchable_node(*g, "torch.ops.aten.convolution.default", "convolution_1", "conv2", "conv2d_1");
  }
  EXPECT_EQ(pairs_of(before, after), (std::vector<std::pair<int, int>>{{0, 1}, {1, 2}, {2, 3}}));
}

TEST(NodeMatching, TheSameOpInsertedInAnotherModuleShiftsNoPair) {
  ir::Graph before, after;
  for (ir::Graph* g : {&before, &after}) {
    if (g == &after) add_matchable_node(*g, "torch.ops.aten.add.Tensor", "add", "adapter", "add");
    add_matchable_node(*g, "torch.ops.aten.add.Tensor", g == &after ? "add_1" : "add", "block", "add");
    add_matchable_node(*g, "torch.ops.aten.add.Tensor", g == &after ? "add_2" : "add_1", "head", "add_1");
  }
  EXPECT_EQ(pairs_of(before, after), (std::vector<std::pair<int, int>>{{0, 1}, {1, 2}}));
}

TEST(NodeMatching, WithoutMetadataNodesPairByOpAndName) {
  ir::Graph before, after;
  add_matchable_node(before, "torch.ops.aten.mul.Tensor", "mul", "m", "mul");
  add_matchable_node(before, "torch.ops.aten.softmax.int", "softmax", "m", "softmax");
  add_matchable_node(after, "torch.ops.aten.clone.default", "clone", "", "");
  add_matchable_node(after, "torch.ops.aten.mul.Tensor", "mul", "", "");          // metadata stripped
  add_matchable_node(after, "torch.ops.aten.softmax.int", "softmax", "", "");
  EXPECT_EQ(pairs_of(before, after), (std::vector<std::pair<int, int>>{{0, 1}, {1, 2}}));
}

TEST(NodeMatching, ANodeRecordingItsOriginPairsWithIt) {
  ir::Graph before, after;
  add_matchable_node(before, "torch.ops.aten.add_.Tensor", "add_", "", "");
  ir::Node* lowered = after.add_nodes();  // pt2lint lower: add_ -> add, with from_node naming add_
  lowered->set_target("torch.ops.aten.add.Tensor");
  lowered->set_name("add");
  ir::StringEntry* from = lowered->add_metadata();
  from->set_key("from_node");
  from->set_value("[{\"name\": \"add_\", \"target\": \"aten.add_.Tensor\", \"from_node\": []}]");
  EXPECT_EQ(pairs_of(before, after), (std::vector<std::pair<int, int>>{{0, 0}}));
}

}  // namespace
}  // namespace pt2lint
