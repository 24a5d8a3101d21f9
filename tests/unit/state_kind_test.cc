// The state kinds (src/core/ir/state_kind.h): every InputSpec case maps to its kind, and the
// report words round-trip exactly, since the JSON and SARIF reports and `contract` write them
// and other tools read them.
#include <google/protobuf/text_format.h>
#include <gtest/gtest.h>

#include <iterator>
#include <optional>
#include <string>

#include "core/ir/state_kind.h"
#include "program.pb.h"

namespace pt2lint {
namespace {

constexpr StateKind kEveryStateKind[] = {StateKind::kUserInput,      StateKind::kParameter,
                                         StateKind::kBuffer,         StateKind::kTensorConstant,
                                         StateKind::kCustomObj,      StateKind::kToken,
                                         StateKind::kConstantInput};

StateKind kind_of_spec_text(const std::string& text) {
  ir::InputSpec spec;
  EXPECT_TRUE(google::protobuf::TextFormat::ParseFromString(text, &spec)) << text;
  return state_kind_of(spec);
}

TEST(StateKind, EveryInputSpecCaseHasItsKind) {
  EXPECT_EQ(kind_of_spec_text("user_input { arg { as_tensor { name: 'x' } } }"), StateKind::kUserInput);
  EXPECT_EQ(kind_of_spec_text("parameter { arg { name: 'p_w' } parameter_name: 'w' }"), StateKind::kParameter);
  EXPECT_EQ(kind_of_spec_text("buffer { arg { name: 'b_c' } buffer_name: 'c' }"), StateKind::kBuffer);
  EXPECT_EQ(kind_of_spec_text("tensor_constant { arg { name: 'c_t' } tensor_constant_name: 't' }"),
            StateKind::kTensorConstant);
  EXPECT_EQ(kind_of_spec_text("custom_obj { arg { name: 'obj_o' } custom_obj_name: 'o' }"), StateKind::kCustomObj);
  EXPECT_EQ(kind_of_spec_text("token { arg { name: 'token' } }"), StateKind::kToken);
  EXPECT_EQ(kind_of_spec_text("constant_input { name: 'n' }"), StateKind::kConstantInput);
  EXPECT_EQ(kind_of_spec_text(""), StateKind::kNone);
}

TEST(StateKind, ReportWordsAreTheInputSpecFieldNamesAndRoundTrip) {
  // The words are the InputSpec union's field names: the contract other tools read.
  const google::protobuf::OneofDescriptor* kinds = ir::InputSpec::descriptor()->FindOneofByName("kind");
  ASSERT_NE(kinds, nullptr);
  ASSERT_EQ(kinds->field_count(), static_cast<int>(std::size(kEveryStateKind)));
  for (int i = 0; i < kinds->field_count(); ++i) {
    const std::string& field = kinds->field(i)->name();
    const std::optional<StateKind> parsed = parse_state_kind(field);
    ASSERT_TRUE(parsed.has_value()) << field;
    EXPECT_EQ(state_kind_name(*parsed), field);
  }
  for (StateKind kind : kEveryStateKind) EXPECT_EQ(parse_state_kind(state_kind_name(kind)), kind);
  EXPECT_EQ(state_kind_name(StateKind::kNone), "");
  EXPECT_FALSE(parse_state_kind("").has_value());
  EXPECT_FALSE(parse_state_kind("Buffer").has_value());
  EXPECT_FALSE(parse_state_kind("user input").has_value());
}

TEST(StateKind, WordsForMessages) {
  EXPECT_EQ(state_kind_words(StateKind::kBuffer), "buffer");
  EXPECT_EQ(state_kind_words(StateKind::kParameter), "parameter");
  EXPECT_EQ(state_kind_words(StateKind::kUserInput), "user input");
  EXPECT_EQ(state_kind_words(StateKind::kTensorConstant), "tensor constant");
  EXPECT_EQ(state_kind_words(StateKind::kCustomObj), "custom object");
  EXPECT_EQ(state_kind_words(StateKind::kConstantInput), "constant input");
  EXPECT_EQ(state_kind_words(StateKind::kToken), "token");
}

TEST(StateKind, MutationOutputsWriteTheirKind) {
  ir::OutputSpec spec;
  EXPECT_EQ(mutation_state_kind(spec), StateKind::kNone);
  spec.mutable_buffer_mutation()->set_buffer_name("c");
  EXPECT_EQ(mutation_state_kind(spec), StateKind::kBuffer);
  spec.mutable_parameter_mutation()->set_parameter_name("w");
  EXPECT_EQ(mutation_state_kind(spec), StateKind::kParameter);
  spec.mutable_user_input_mutation()->set_user_input_name("x");
  EXPECT_EQ(mutation_state_kind(spec), StateKind::kUserInput);
  spec.mutable_user_output();
  EXPECT_EQ(mutation_state_kind(spec), StateKind::kNone);
  EXPECT_EQ(mutation_spec_kind(StateKind::kBuffer), "buffer_mutation");
  EXPECT_EQ(mutation_spec_kind(StateKind::kParameter), "parameter_mutation");
  EXPECT_EQ(mutation_spec_kind(StateKind::kUserInput), "user_input_mutation");
  EXPECT_EQ(mutation_spec_kind(StateKind::kTensorConstant), "");
}

}  // namespace
}  // namespace pt2lint
