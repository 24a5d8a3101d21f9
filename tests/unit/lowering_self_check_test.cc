// `lower` checks its own output: a mutating op anywhere (subgraphs included) is refused, a
// functional program with no error finding passes.
#include <gtest/gtest.h>

#include <google/protobuf/text_format.h>

#include <fstream>
#include <sstream>
#include <string>

#include "lowering/functionalize.h"
#include "lowering/self_check.h"

namespace pt2lint {
namespace {

TEST(LowerSelfCheck, RefusesAMutatingOpInsideASubgraphAndAcceptsAFunctionalProgram) {
  const std::string path = std::string(PT2LINT_TESTS_DIR) + "/data/subgraphs/refused/cond_writes_state.textproto";
  std::ifstream in(path);
  std::stringstream text;
  text << in.rdbuf();
  std::string body = text.str();
  ir::Program program;
  ASSERT_TRUE(google::protobuf::TextFormat::ParseFromString(body, &program));
  program.mutable_program()->set_verifiers(0, "ATEN");
  const Status checked = lowering::self_check(program);
  const std::string& problem = checked.message();
  EXPECT_NE(problem.find("mutating op"), std::string::npos) << problem;
  EXPECT_NE(problem.find("add_"), std::string::npos) << problem;

  // The grad-mode region golden, lowered: functional, and check finds no error.
  std::ifstream grad(std::string(PT2LINT_TESTS_DIR) +
                     "/golden/dataflow/subgraph-writes-decidable/good_grad_region_writes_buffer.textproto");
  std::stringstream grad_text;
  grad_text << grad.rdbuf();
  ir::Program region;
  ASSERT_TRUE(google::protobuf::TextFormat::ParseFromString(grad_text.str(), &region));
  ASSERT_TRUE(lowering::functionalize(region).ok());
  EXPECT_TRUE(lowering::self_check(region).ok());
  // The call now returns the new value of `steps`, which is written back.
  const auto& specs = region.program().graph_module().signature().output_specs();
  ASSERT_GE(specs.size(), 1);
  EXPECT_EQ(specs[0].buffer_mutation().buffer_name(), "steps");
}

}  // namespace
}  // namespace pt2lint
