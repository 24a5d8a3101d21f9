// Behaviour of the structural rules on small hand-built programs: what each reports, the
// "did you mean" notes, and that partially filled IR never crashes them.
#include <google/protobuf/text_format.h>
#include <gtest/gtest.h>

#include <algorithm>
#include <string>

#include "analysis/program_index.h"
#include "core/diagnostic_sink.h"
#include "core/rule_registry.h"
#include "rules/register_all_rules.h"

namespace pt2lint {
namespace {

// A counter module after run_decompositions: `stats.count` is incremented and written back.
constexpr const char* kCounter = R"pb(
  name: "model"
  layout: LAYOUT_PT2_ARCHIVE
  program {
    schema_version { major: 8 minor: 17 }
    verifiers: "ATEN"
    graph_module {
      graph {
        inputs { as_tensor { name: "p_lin_weight" } }
        inputs { as_tensor { name: "b_stats_count" } }
        inputs { as_tensor { name: "x" } }
        nodes {
          target: "torch.ops.aten.add.Tensor" name: "add"
          inputs { name: "self" arg { as_tensor { name: "b_stats_count" } } }
          inputs { name: "other" arg { as_int: 1 } }
          outputs { as_tensor { name: "add" } }
        }
        nodes {
          target: "torch.ops.aten.mul.Tensor" name: "mul"
          inputs { name: "self" arg { as_tensor { name: "x" } } }
          inputs { name: "other" arg { as_tensor { name: "add" } } }
          outputs { as_tensor { name: "mul" } }
        }
        outputs { as_tensor { name: "add" } }
        outputs { as_tensor { name: "mul" } }
        tensor_values { key: "p_lin_weight" value { dtype: 7 sizes { as_int: 4 } strides { as_int: 1 } storage_offset { as_int: 0 } } }
        tensor_values { key: "b_stats_count" value { dtype: 5 storage_offset { as_int: 0 } } }
        tensor_values { key: "x" value { dtype: 7 sizes { as_int: 4 } strides { as_int: 1 } } }
        tensor_values { key: "add" value { dtype: 5 } }
        tensor_values { key: "mul" value { dtype: 7 sizes { as_int: 4 } strides { as_int: 1 } } }
      }
      signature {
        input_specs { parameter { arg { name: "p_lin_weight" } parameter_name: "lin.weight" } }
        input_specs { buffer { arg { name: "b_stats_count" } buffer_name: "stats.count" persistent: true } }
        input_specs { user_input { arg { as_tensor { name: "x" } } } }
        output_specs { buffer_mutation { arg { name: "add" } buffer_name: "stats.count" } }
        output_specs { user_output { arg { as_tensor { name: "mul" } } } }
      }
      module_call_graph {
        fqn: ""
        signature { out_spec: "[1, {\"type\": null, \"context\": null, \"children_spec\": []}]" }
      }
    }
  }
  weights {
    present: true
    config_path: "counter/data/weights/model_weights_config.json"
    config {
      config { key: "lin.weight" value { path_name: "weight_0" is_param: true tensor_meta { dtype: 7 sizes { as_int: 4 } strides { as_int: 1 } storage_offset { as_int: 0 } } } }
      config { key: "stats.count" value { path_name: "weight_1" tensor_meta { dtype: 5 storage_offset { as_int: 0 } } } }
    }
    records { path: "weight_0" size: 16 }
    records { path: "weight_1" size: 8 }
  }
  constants { present: true }
)pb";

ir::Program parse_program(const std::string& text) {
  ir::Program program;
  EXPECT_TRUE(google::protobuf::TextFormat::ParseFromString(text, &program));
  return program;
}

ir::GraphSignature& signature_of(ir::Program& program) {
  return *program.mutable_program()->mutable_graph_module()->mutable_signature();
}
ir::Graph& graph_of(ir::Program& program) {
  return *program.mutable_program()->mutable_graph_module()->mutable_graph();
}

// Runs every structural rule; returns the findings of `rule_name` ("" for all).
std::vector<Finding> run_rules(const ir::Program& program, std::string_view rule_name = {}) {
  RuleRegistry registry;
  register_all_rules(registry);
  ProgramIndex index(program);
  CollectingSink sink;
  for (const auto& rule : registry.rules())
    if (rule->info().phase == RulePhase::kStructural) rule->check(index, sink);
  std::vector<Finding> kept;
  for (const Finding& f : sink.findings())
    if (rule_name.empty() || f.rule_name == rule_name) kept.push_back(f);
  return kept;
}

bool any_note_contains(const Finding& finding, std::string_view text) {
  return std::any_of(finding.notes.begin(), finding.notes.end(),
                     [&](const Note& note) { return note.text.find(text) != std::string::npos; });
}

std::string dump(const std::vector<Finding>& findings) {
  std::string out;
  for (const Finding& f : findings) {
    out += f.rule_name + ": " + f.message + "\n";
    for (const Note& note : f.notes) out += "    note: " + note.text + "\n";
  }
  return out;
}

TEST(StructuralRules, CleanProgramHasNoFindings) {
  std::vector<Finding> findings = run_rules(parse_program(kCounter));
  EXPECT_TRUE(findings.empty()) << dump(findings);
}

TEST(StructuralRules, PartiallyFilledIrDoesNotCrash) {
  run_rules(ir::Program());
  ir::Program program = parse_program(R"pb(
    program { graph_module {
      graph { inputs {} outputs {} nodes { outputs {} inputs { arg { as_graph {} } } } }
      signature { input_specs {} output_specs {} output_specs { buffer_mutation {} } }
      module_call_graph { fqn: "" signature { out_spec: "[1, {" } }
    } }
    weights { present: true config { config {} } }
    constants { present: true }
  )pb");
  run_rules(program);
}

TEST(MutationTargetResolves, LiftedNameSuggestsTheFqn) {
  ir::Program program = parse_program(kCounter);
  signature_of(program).mutable_output_specs(0)->mutable_buffer_mutation()->set_buffer_name(
      "lifted_buf_stats_count");
  std::vector<Finding> findings = run_rules(program, "mutation-target-resolves");
  ASSERT_EQ(findings.size(), 1u) << dump(findings);
  EXPECT_EQ(findings[0].location.output_spec, 0);
  EXPECT_TRUE(any_note_contains(findings[0], "did you mean `stats.count`?")) << dump(findings);
  EXPECT_TRUE(any_note_contains(findings[0], "prefix `lifted_buf_`")) << dump(findings);
}

TEST(MutationTargetResolves, PlaceholderNameSuggestsTheFqn) {
  ir::Program program = parse_program(kCounter);
  signature_of(program).mutable_output_specs(0)->mutable_buffer_mutation()->set_buffer_name(
      "b_stats_count");
  std::vector<Finding> findings = run_rules(program, "mutation-target-resolves");
  ASSERT_EQ(findings.size(), 1u) << dump(findings);
  EXPECT_TRUE(any_note_contains(findings[0], "placeholder name of `stats.count`")) << dump(findings);
}

TEST(MutationTargetResolves, ParameterNamedWhereABufferWasMeant) {
  ir::Program program = parse_program(kCounter);
  signature_of(program).mutable_output_specs(0)->mutable_buffer_mutation()->set_buffer_name(
      "lin.weight");
  std::vector<Finding> findings = run_rules(program, "mutation-target-resolves");
  ASSERT_EQ(findings.size(), 1u) << dump(findings);
  EXPECT_TRUE(any_note_contains(findings[0], "is a parameter")) << dump(findings);
  // The value is computed from b_stats_count, which nothing else writes back.
  EXPECT_TRUE(any_note_contains(findings[0], "did you mean `stats.count`?")) << dump(findings);
}

TEST(MutationTargetResolves, BufferSpecRewrittenAsParameter) {
  ir::Program program = parse_program(kCounter);
  ir::InputSpec& spec = *signature_of(program).mutable_input_specs(1);
  spec.mutable_parameter()->mutable_arg()->set_name("b_stats_count");
  spec.mutable_parameter()->set_parameter_name("stats.count");
  std::vector<Finding> findings = run_rules(program, "mutation-target-resolves");
  ASSERT_EQ(findings.size(), 1u) << dump(findings);
  EXPECT_TRUE(any_note_contains(findings[0], "rewritten as a parameter")) << dump(findings);
  ASSERT_TRUE(findings[0].fix);
  EXPECT_NE(findings[0].fix->replacement.find("\"buffer_name\": \"stats.count\""),
            std::string::npos);
}

TEST(MutationTargetResolves, UserInputMutationNamesAPlaceholder) {
  ir::Program program = parse_program(kCounter);
  ir::OutputSpec& spec = *signature_of(program).mutable_output_specs(0);
  spec.mutable_user_input_mutation()->mutable_arg()->set_name("add");
  spec.mutable_user_input_mutation()->set_user_input_name("x");
  EXPECT_TRUE(run_rules(program, "mutation-target-resolves").empty());
  spec.mutable_user_input_mutation()->set_user_input_name("stats.count");
  std::vector<Finding> findings = run_rules(program, "mutation-target-resolves");
  ASSERT_EQ(findings.size(), 1u) << dump(findings);
  EXPECT_TRUE(any_note_contains(findings[0], "is a buffer")) << dump(findings);
}

TEST(OutputSpecsMatchGraphOutputs, RotationIsNamed) {
  ir::Program program = parse_program(kCounter);
  auto* specs = signature_of(program).mutable_output_specs();
  std::rotate(specs->begin(), specs->begin() + 1, specs->end());
  std::vector<Finding> findings = run_rules(program, "output-specs-match-graph-outputs");
  ASSERT_EQ(findings.size(), 2u) << dump(findings);
  EXPECT_TRUE(any_note_contains(findings[0], "rotated by 1")) << dump(findings);
  EXPECT_TRUE(any_note_contains(findings[1], "writes graph output 1 (`mul`) back into "
                                             "`stats.count`"))
      << dump(findings);
}

TEST(MutationsBeforeUserOutputs, ExplainsTorchsMisleadingMessage) {
  ir::Program program = parse_program(kCounter);
  auto* specs = signature_of(program).mutable_output_specs();
  std::rotate(specs->begin(), specs->begin() + 1, specs->end());
  auto* outputs = graph_of(program).mutable_outputs();
  std::rotate(outputs->begin(), outputs->begin() + 1, outputs->end());
  EXPECT_TRUE(run_rules(program, "output-specs-match-graph-outputs").empty());
  std::vector<Finding> findings = run_rules(program, "mutations-before-user-outputs");
  ASSERT_EQ(findings.size(), 1u) << dump(findings);
  EXPECT_EQ(findings[0].location.output_spec, 1);
  EXPECT_NE(findings[0].message.find("buffer_mutation of `stats.count`"), std::string::npos);
  EXPECT_TRUE(any_note_contains(findings[0], "Mutation node mul is neither")) << dump(findings);
}

TEST(OneMutationPerBuffer, ReportsBothIndicesAndTheOrphanedBuffer) {
  ir::Program program = parse_program(kCounter);
  // A second buffer whose update is wrongly declared as another write of stats.count.
  ir::Graph& graph = graph_of(program);
  graph.add_inputs()->mutable_as_tensor()->set_name("b_stats_total");
  ir::Node& node = *graph.add_nodes();
  node.set_target("torch.ops.aten.add.Tensor");
  node.set_name("add_1");
  node.add_inputs()->mutable_arg()->mutable_as_tensor()->set_name("b_stats_total");
  node.add_outputs()->mutable_as_tensor()->set_name("add_1");
  graph.add_outputs()->mutable_as_tensor()->set_name("add_1");
  ir::GraphSignature& sig = signature_of(program);
  ir::InputSpec* input = sig.add_input_specs();
  input->mutable_buffer()->mutable_arg()->set_name("b_stats_total");
  input->mutable_buffer()->set_buffer_name("stats.total");
  ir::OutputSpec* output = sig.add_output_specs();
  output->mutable_buffer_mutation()->mutable_arg()->set_name("add_1");
  output->mutable_buffer_mutation()->set_buffer_name("stats.count");

  std::vector<Finding> findings = run_rules(program, "one-mutation-per-buffer");
  ASSERT_EQ(findings.size(), 1u) << dump(findings);
  EXPECT_EQ(findings[0].location.output_spec, 2);
  EXPECT_NE(findings[0].message.find("output_specs[0]"), std::string::npos);
  EXPECT_TRUE(any_note_contains(findings[0], "did you mean `stats.total`?")) << dump(findings);
}

TEST(StateDictMismatch, MissingAndShortRecords) {
  ir::Program program = parse_program(kCounter);
  program.mutable_weights()->mutable_records(0)->set_size(12);
  program.mutable_weights()->mutable_records()->RemoveLast();
  std::vector<Finding> findings = run_rules(program, "state-dict-mismatch");
  ASSERT_EQ(findings.size(), 2u) << dump(findings);
  EXPECT_NE(findings[0].message.find("needs 16"), std::string::npos) << dump(findings);
  EXPECT_NE(findings[1].message.find("`weight_1`, which is not in the archive"), std::string::npos)
      << dump(findings);
  EXPECT_EQ(findings[1].state_fqn, "stats.count");
}

TEST(StateDictMismatch, PlacementOfStateKinds) {
  ir::Program program = parse_program(kCounter);
  signature_of(program).mutable_input_specs(1)->mutable_buffer()->set_persistent(false);
  ir::PayloadMetaEntry* extra = program.mutable_weights()->mutable_config()->add_config();
  extra->set_key("stale.weight");
  extra->mutable_value()->set_path_name("weight_7");  // a record of its own: no alias
  std::vector<Finding> findings = run_rules(program, "state-dict-mismatch");
  ASSERT_EQ(findings.size(), 2u) << dump(findings);
  EXPECT_EQ(findings[0].severity, Severity::kError);
  EXPECT_NE(findings[0].message.find("non-persistent buffer `stats.count`"), std::string::npos);
  EXPECT_EQ(findings[1].severity, Severity::kWarning);
  EXPECT_EQ(findings[1].state_fqn, "stale.weight");
}

// Tied weights exported with strict=True: one input spec lifts `lin.weight`, and the weights
// config also lists `head.weight` on the same record. That entry is the lifted tensor.
TEST(StateDictMismatch, TiedEntryOnTheRecordOfLiftedStateIsAccepted) {
  ir::Program program = parse_program(kCounter);
  ir::PayloadMetaEntry* tied = program.mutable_weights()->mutable_config()->add_config();
  tied->set_key("head.weight");
  tied->mutable_value()->set_path_name("weight_0");
  tied->mutable_value()->set_is_param(true);
  EXPECT_TRUE(run_rules(program, "state-dict-mismatch").empty());
}

TEST(StateDictMismatch, SkippedStateGivesOneNoteOnlyForLegacyZips) {
  ir::Program program = parse_program(kCounter);
  program.clear_weights();
  program.clear_constants();
  program.set_layout(ir::LAYOUT_LEGACY_ZIP);
  std::vector<Finding> findings = run_rules(program, "state-dict-mismatch");
  ASSERT_EQ(findings.size(), 1u) << dump(findings);
  EXPECT_EQ(findings[0].severity, Severity::kNote);
  program.set_layout(ir::LAYOUT_TEXTPROTO);
  EXPECT_TRUE(run_rules(program, "state-dict-mismatch").empty());
}

TEST(ValueRules, SubgraphsAreTheirOwnScope) {
  ir::Program program = parse_program(kCounter);
  ir::Node& cond = *graph_of(program).add_nodes();
  cond.set_target("torch.ops.higher_order.cond");
  cond.set_name("cond");
  ir::Graph* body = cond.add_inputs()->mutable_arg()->mutable_as_graph()->mutable_graph();
  cond.mutable_inputs(0)->mutable_arg()->mutable_as_graph()->set_name("true_graph_0");
  cond.add_inputs()->mutable_arg()->mutable_as_tensor()->set_name("mul");
  cond.add_outputs()->mutable_as_tensor()->set_name("cond_out");
  (*graph_of(program).add_tensor_values()).set_key("cond_out");
  // Inside: `y` is the subgraph's own input; `neg` is its own value. Neither exists outside.
  body->add_inputs()->mutable_as_tensor()->set_name("y");
  ir::Node& neg = *body->add_nodes();
  neg.set_target("torch.ops.aten.neg.default");
  neg.add_inputs()->mutable_arg()->mutable_as_tensor()->set_name("y");
  neg.add_outputs()->mutable_as_tensor()->set_name("mul");  // shadows nothing: separate scope
  body->add_outputs()->mutable_as_tensor()->set_name("mul");
  body->add_tensor_values()->set_key("y");
  body->add_tensor_values()->set_key("mul");
  std::vector<Finding> findings = run_rules(program);
  EXPECT_TRUE(findings.empty()) << dump(findings);

  // Reading a top-level value from inside the subgraph is an error in the subgraph.
  neg.mutable_inputs(0)->mutable_arg()->mutable_as_tensor()->set_name("x");
  findings = run_rules(program, "value-defined-before-use");
  ASSERT_EQ(findings.size(), 1u) << dump(findings);
  EXPECT_EQ(findings[0].location.node, "cond");
  EXPECT_NE(findings[0].message.find("subgraph `true_graph_0`"), std::string::npos);
}

TEST(ValueRules, UseBeforeDefinitionAndDuplicates) {
  ir::Program program = parse_program(kCounter);
  auto* nodes = graph_of(program).mutable_nodes();
  std::swap(*nodes->Mutable(0), *nodes->Mutable(1));
  std::vector<Finding> findings = run_rules(program, "value-defined-before-use");
  ASSERT_EQ(findings.size(), 1u) << dump(findings);
  EXPECT_NE(findings[0].message.find("before node `add` (position 1) defines it"),
            std::string::npos);

  program = parse_program(kCounter);
  nodes = graph_of(program).mutable_nodes();
  nodes->Mutable(1)->mutable_outputs(0)->mutable_as_tensor()->set_name("add");
  findings = run_rules(program, "value-names-unique");
  ASSERT_EQ(findings.size(), 1u) << dump(findings);
  EXPECT_EQ(findings[0].location.node, "mul");
  EXPECT_EQ(findings[0].location.value, "add");
}

TEST(ValueRules, MissingMetadataIsListedThenSummed) {
  ir::Program program = parse_program(kCounter);
  graph_of(program).clear_tensor_values();
  std::vector<Finding> findings = run_rules(program, "value-has-metadata");
  EXPECT_EQ(findings.size(), 5u) << dump(findings);
  for (int i = 0; i < 30; ++i) {
    ir::Node& node = *graph_of(program).add_nodes();
    node.set_target("torch.ops.aten.clone.default");
    node.add_outputs()->mutable_as_tensor()->set_name("c" + std::to_string(i));
  }
  findings = run_rules(program, "value-has-metadata");
  ASSERT_EQ(findings.size(), 21u);
  EXPECT_NE(findings.back().message.find("15 more values"), std::string::npos);
}

TEST(OutputArity, CountsUserOutputsAgainstOutSpec) {
  ir::Program program = parse_program(kCounter);
  ir::ModuleCallEntry& root =
      *program.mutable_program()->mutable_graph_module()->mutable_module_call_graph(0);
  root.mutable_signature()->set_out_spec(
      R"([1, {"type": "builtins.tuple", "context": "null", "children_spec": [)"
      R"({"type": null, "context": null, "children_spec": []}, )"
      R"({"type": null, "context": null, "children_spec": []}]}])");
  std::vector<Finding> findings = run_rules(program, "output-arity-matches-call-spec");
  ASSERT_EQ(findings.size(), 1u) << dump(findings);
  EXPECT_EQ(findings[0].severity, Severity::kError);
  EXPECT_EQ(findings[0].location.json_path,
            "graph_module.module_call_graph[0].signature.out_spec");

  // torch.export.load runs treespec_loads on it and refuses the file: an error.
  root.mutable_signature()->set_out_spec("[1, {\"type\": ");
  findings = run_rules(program, "output-arity-matches-call-spec");
  ASSERT_EQ(findings.size(), 1u) << dump(findings);
  EXPECT_EQ(findings[0].severity, Severity::kError);
}

TEST(InputSpecsMatchPlaceholders, ListsBothSidesWithDidYouMean) {
  ir::Program program = parse_program(kCounter);
  signature_of(program).mutable_input_specs(2)->mutable_user_input()->mutable_arg()
      ->mutable_as_tensor()->set_name("x_renamed");
  std::vector<Finding> findings = run_rules(program, "input-specs-match-placeholders");
  ASSERT_EQ(findings.size(), 2u) << dump(findings);
  EXPECT_EQ(findings[0].location.input_spec, 2);
  EXPECT_TRUE(any_note_contains(findings[0], "did you mean `x`?")) << dump(findings);
  EXPECT_EQ(findings[1].location.value, "x");

  program = parse_program(kCounter);
  signature_of(program).mutable_input_specs()->DeleteSubrange(1, 1);
  findings = run_rules(program, "input-specs-match-placeholders");
  ASSERT_EQ(findings.size(), 1u) << dump(findings);
  EXPECT_EQ(findings[0].location.value, "b_stats_count");
  EXPECT_TRUE(any_note_contains(findings[0], "lifted buffer")) << dump(findings);
}

}  // namespace
}  // namespace pt2lint
