// Each broken promise is reported by its own rule, and nothing else is.
#include <gtest/gtest.h>

#include "contract/contract_diff.h"

namespace pt2lint {
namespace {

ValueFacts tensor(std::string shape, std::string dtype = "float32") {
  return {"tensor", std::move(shape), std::move(dtype)};
}

WritePromise write(std::string target, std::string base, ValueFacts value = tensor("(4)")) {
  WritePromise w;
  w.target = std::move(target);
  w.kind = StateKind::kBuffer;
  w.state = tensor("(4)");
  w.base = std::move(base);
  w.value = std::move(value);
  return w;
}

ProgramContract contract(std::vector<WritePromise> writes, std::vector<ValueFacts> outputs = {tensor("(2, 4)")}) {
  ProgramContract c;
  c.program = "model";
  c.user_inputs.push_back({"x", tensor("(2, 4)")});
  for (auto& o : outputs) c.user_outputs.push_back({o});
  c.out_spec = "[1,{}]";
  c.writes = std::move(writes);
  return c;
}

std::vector<std::string> diff(const ProgramContract& before, const ProgramContract& after, RenameMap renames = {}) {
  CollectingSink sink;
  diff_contracts(before, after, renames, sink);
  std::vector<std::string> rules;
  for (const Finding& f : sink.findings()) rules.push_back(f.rule_name);
  return rules;
}

using Rules = std::vector<std::string>;

TEST(ContractDiff, EqualContractsHaveNoFindings) {
  const auto c = contract({write("a.k", "a.k"), write("a.v", "a.v")});
  EXPECT_EQ(diff(c, c), Rules{});
}

TEST(ContractDiff, WriteBackLostAndAdded) {
  EXPECT_EQ(diff(contract({write("a.k", "a.k")}), contract({})), Rules{"write-back-lost"});
  EXPECT_EQ(diff(contract({}), contract({write("a.k", "a.k")})), Rules{"write-back-added"});
}

TEST(ContractDiff, SameTargetTwiceAndTheOtherLost) {
  EXPECT_EQ(diff(contract({write("a.k", "a.k"), write("a.v", "a.v")}),
                 contract({write("a.k", "a.k"), write("a.k", "a.v")})),
            (Rules{"write-back-duplicated", "write-back-lost"}));
}

// One tensor registered as `a.k` and `b.k`: a lowering that writes it back under the other
// name keeps the write; two unrelated names do not match.
TEST(ContractDiff, WriteUnderAnotherNameOfTheSameStorageIsKept) {
  WritePromise tied = write("a.k", "a.k");
  tied.aliases = {"b.k"};
  EXPECT_EQ(diff(contract({tied}), contract({write("b.k", "b.k")})), Rules{});
  WritePromise via_other_name = write("a.k", "b.k");  // updated through `b.k`, written to `a.k`
  via_other_name.aliases = {"b.k"};
  EXPECT_EQ(diff(contract({tied}), contract({via_other_name})), Rules{});
  EXPECT_EQ(diff(contract({write("a.k", "a.k")}), contract({write("b.k", "b.k")})),
            (Rules{"write-back-lost", "write-back-added"}));
}

TEST(ContractDiff, ValueFromAnotherBufferEvenWhenShapesMatch) {
  EXPECT_EQ(diff(contract({write("a.k", "a.k"), write("a.v", "a.v")}),
                 contract({write("a.k", "a.v"), write("a.v", "a.k")})),
            (Rules{"write-back-from-other-state", "write-back-from-other-state"}));
}

TEST(ContractDiff, ValueShapeChanged) {
  EXPECT_EQ(diff(contract({write("a.k", "a.k")}), contract({write("a.k", "", tensor("(1, 97)"))})),
            Rules{"write-back-shape-changed"});
}

TEST(ContractDiff, UnknownOriginIsNotAccusedOfComingFromElsewhere) {
  EXPECT_EQ(diff(contract({write("a.k", "a.k")}), contract({write("a.k", "")})), Rules{});
}

TEST(ContractDiff, RenamedWithoutAndWithMapping) {
  const auto before = contract({write("a.k", "a.k")});
  const auto after = contract({write("lifted_buf_a_k", "lifted_buf_a_k")});
  EXPECT_EQ(diff(before, after), Rules{"write-back-target-renamed"});
  EXPECT_EQ(diff(before, after, {{"a.k", "lifted_buf_a_k"}}), Rules{});
  // The mapping says renamed, the program still writes the old name.
  EXPECT_EQ(diff(before, contract({write("a.k", "lifted_buf_a_k")}), {{"a.k", "lifted_buf_a_k"}}),
            Rules{"write-back-target-renamed"});
}

TEST(ContractDiff, UserOutputsGainedLostReorderedChanged) {
  const ValueFacts logits = tensor("(1, 97)"), norm = tensor("()");
  EXPECT_EQ(diff(contract({}, {logits}), contract({}, {logits, logits})), Rules{"user-output-gained"});
  EXPECT_EQ(diff(contract({}, {logits, norm}), contract({}, {norm})), Rules{"user-output-lost"});
  EXPECT_EQ(diff(contract({}, {logits, norm}), contract({}, {norm, logits})), Rules{"user-output-reordered"});
  EXPECT_EQ(diff(contract({}, {logits}), contract({}, {tensor("(1, 97)", "float16")})), Rules{"user-output-changed"});
}

TEST(ContractDiff, TreeSpecAndUserInputs) {
  auto before = contract({});
  auto after = before;
  after.out_spec = "[1,{\"type\":\"builtins.dict\"}]";
  after.user_inputs[0].value = tensor("(1, 4)");
  EXPECT_EQ(diff(before, after), (Rules{"user-input-changed", "user-output-tree-changed"}));
}

TEST(ContractDiff, ProgramsArePairedByNameAndMissingOnesReported) {
  auto prefill = contract({});
  prefill.program = "prefill";
  auto decode = contract({});
  decode.program = "decode";
  CollectingSink sink;
  diff_program_sets({prefill, decode}, {decode, contract({})}, [](const ProgramContract&) { return RenameMap{}; },
                    sink);
  std::vector<std::string> rules;
  for (const Finding& f : sink.findings()) rules.push_back(f.rule_name + ":" + f.program);
  EXPECT_EQ(rules, (Rules{"program-missing:prefill", "program-missing:model"}));
}

}  // namespace
}  // namespace pt2lint
