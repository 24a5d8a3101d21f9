#include "io/readers/json/ir_field_setters.h"

#include <vector>

#include "program.pb.h"

namespace pt2lint {
namespace {

namespace pb = google::protobuf;

struct Entry {
  const pb::Descriptor* message;
  std::string_view field;
  FieldSetters setters;
};

template <typename Slot>
FieldSetters with(Slot FieldSetters::*slot, Slot value) {
  FieldSetters s;
  s.*slot = value;
  return s;
}

// One line per field. The macros name the generated accessor from the field name, so a
// field renamed or removed in program.proto fails to compile here rather than misreading.
// Singular: M message, S string, I64 / I32 integers, B bool, D double. Repeated: the same
// letters with R.
#define PT2LINT_ENTRY(T, f, slot, fn) Entry{ir::T::descriptor(), #f, with(&FieldSetters::slot, fn)}
#define M(T, f) \
  PT2LINT_ENTRY(T, f, message, +[](pb::Message& m) -> pb::Message* { \
    return static_cast<ir::T&>(m).mutable_##f(); })
#define MR(T, f) \
  PT2LINT_ENTRY(T, f, message, +[](pb::Message& m) -> pb::Message* { \
    return static_cast<ir::T&>(m).add_##f(); })
// set_f(std::string&&) moves the one copy into the arena's string; set_f(data, size) would
// build a temporary and copy it again (a malloc, a copy and a free more for each string over
// 15 bytes: 47,585 of them on kv_nested_256l, 380.0 M -> 370.2 M instructions).
#define S(T, f) \
  PT2LINT_ENTRY(T, f, string, +[](pb::Message& m, std::string_view s) { \
    static_cast<ir::T&>(m).set_##f(std::string(s)); })
#define SR(T, f) \
  PT2LINT_ENTRY(T, f, string, +[](pb::Message& m, std::string_view s) { \
    static_cast<ir::T&>(m).add_##f(s.data(), s.size()); })
#define I64(T, f) \
  PT2LINT_ENTRY(T, f, int64, +[](pb::Message& m, std::int64_t x) { \
    static_cast<ir::T&>(m).set_##f(x); })
#define I64R(T, f) \
  PT2LINT_ENTRY(T, f, int64, +[](pb::Message& m, std::int64_t x) { \
    static_cast<ir::T&>(m).add_##f(x); })
#define I32(T, f) \
  PT2LINT_ENTRY(T, f, int32, +[](pb::Message& m, std::int32_t x) { \
    static_cast<ir::T&>(m).set_##f(x); })
#define B(T, f) \
  PT2LINT_ENTRY(T, f, boolean, +[](pb::Message& m, bool x) { \
    static_cast<ir::T&>(m).set_##f(x); })
#define BR(T, f) \
  PT2LINT_ENTRY(T, f, boolean, +[](pb::Message& m, bool x) { \
    static_cast<ir::T&>(m).add_##f(x); })
#define D(T, f) \
  PT2LINT_ENTRY(T, f, real, +[](pb::Message& m, double x) { \
    static_cast<ir::T&>(m).set_##f(x); })
#define DR(T, f) \
  PT2LINT_ENTRY(T, f, real, +[](pb::Message& m, double x) { \
    static_cast<ir::T&>(m).add_##f(x); })

// Built once, on first use, and only read afterwards.
const std::vector<Entry>& entries() {
  static const std::vector<Entry> table = {
      S(Device, type),
      I64(Device, index),
      I64(SymExprHint, as_int),
      B(SymExprHint, as_bool),
      D(SymExprHint, as_float),
      S(SymExpr, expr_str),
      M(SymExpr, hint),
      M(SymInt, as_expr),
      I64(SymInt, as_int),
      M(SymFloat, as_expr),
      D(SymFloat, as_float),
      M(SymBool, as_expr),
      B(SymBool, as_bool),
      I32(TensorMeta, dtype),
      MR(TensorMeta, sizes),
      B(TensorMeta, requires_grad),
      M(TensorMeta, device),
      MR(TensorMeta, strides),
      M(TensorMeta, storage_offset),
      I32(TensorMeta, layout),
      S(SymIntArgument, as_name),
      I64(SymIntArgument, as_int),
      S(SymFloatArgument, as_name),
      D(SymFloatArgument, as_float),
      S(SymBoolArgument, as_name),
      B(SymBoolArgument, as_bool),
      S(TensorArgument, name),
      S(TokenArgument, name),
      M(OptionalTensorArgument, as_tensor),
      B(OptionalTensorArgument, as_none),
      S(CustomObjArgument, name),
      S(CustomObjArgument, class_fqn),
      D(ComplexValue, real),
      D(ComplexValue, imag),
      I64R(IntList, items),
      DR(FloatList, items),
      MR(TensorArgumentList, items),
      S(StringToArgumentEntry, key),
      M(StringToArgumentEntry, value),
      B(Argument, as_none),
      M(Argument, as_tensor),
      M(Argument, as_tensors),
      I64(Argument, as_int),
      M(Argument, as_ints),
      D(Argument, as_float),
      M(Argument, as_floats),
      S(Argument, as_string),
      M(Argument, as_strings),
      M(Argument, as_sym_int),
      M(Argument, as_sym_ints),
      I32(Argument, as_scalar_type),
      I32(Argument, as_memory_format),
      I32(Argument, as_layout),
      M(Argument, as_device),
      B(Argument, as_bool),
      M(Argument, as_bools),
      M(Argument, as_sym_bool),
      M(Argument, as_sym_bools),
      M(Argument, as_graph),
      M(Argument, as_optional_tensors),
      M(Argument, as_custom_obj),
      S(Argument, as_operator),
      M(Argument, as_sym_float),
      M(Argument, as_sym_floats),
      M(Argument, as_optional_tensor),
      M(Argument, as_complex),
      M(Argument, as_nested_tensors),
      M(Argument, as_int_lists),
      M(Argument, as_string_to_argument),
      M(Argument, as_float_lists),
      SR(StringList, items),
      BR(BoolList, items),
      MR(SymIntArgumentList, items),
      MR(SymBoolArgumentList, items),
      MR(SymFloatArgumentList, items),
      MR(OptionalTensorArgumentList, items),
      MR(NestedTensorList, items),
      MR(IntListList, items),
      MR(FloatListList, items),
      MR(StringToArgumentMap, items),
      S(NamedArgument, name),
      M(NamedArgument, arg),
      I32(NamedArgument, kind),
      S(StringEntry, key),
      S(StringEntry, value),
      S(Node, target),
      MR(Node, inputs),
      MR(Node, outputs),
      MR(Node, metadata),
      B(Node, is_hop_single_tensor_return),
      S(Node, name),
      S(TensorMetaEntry, key),
      M(TensorMetaEntry, value),
      S(SymIntEntry, key),
      M(SymIntEntry, value),
      S(SymBoolEntry, key),
      M(SymBoolEntry, value),
      S(SymFloatEntry, key),
      M(SymFloatEntry, value),
      S(CustomObjEntry, key),
      M(CustomObjEntry, value),
      MR(Graph, inputs),
      MR(Graph, outputs),
      MR(Graph, nodes),
      MR(Graph, tensor_values),
      MR(Graph, sym_int_values),
      MR(Graph, sym_bool_values),
      B(Graph, is_single_tensor_return),
      MR(Graph, custom_obj_values),
      MR(Graph, sym_float_values),
      M(UserInputSpec, arg),
      M(InputToParameterSpec, arg),
      S(InputToParameterSpec, parameter_name),
      M(InputToBufferSpec, arg),
      S(InputToBufferSpec, buffer_name),
      B(InputToBufferSpec, persistent),
      M(InputToTensorConstantSpec, arg),
      S(InputToTensorConstantSpec, tensor_constant_name),
      M(InputToCustomObjSpec, arg),
      S(InputToCustomObjSpec, custom_obj_name),
      M(InputTokenSpec, arg),
      M(InputSpec, user_input),
      M(InputSpec, parameter),
      M(InputSpec, buffer),
      M(InputSpec, tensor_constant),
      M(InputSpec, custom_obj),
      M(InputSpec, token),
      M(InputSpec, constant_input),
      M(UserOutputSpec, arg),
      M(LossOutputSpec, arg),
      M(BufferMutationSpec, arg),
      S(BufferMutationSpec, buffer_name),
      M(GradientToParameterSpec, arg),
      S(GradientToParameterSpec, parameter_name),
      M(GradientToUserInputSpec, arg),
      S(GradientToUserInputSpec, user_input_name),
      M(UserInputMutationSpec, arg),
      S(UserInputMutationSpec, user_input_name),
      M(OutputTokenSpec, arg),
      M(ParameterMutationSpec, arg),
      S(ParameterMutationSpec, parameter_name),
      M(OutputSpec, user_output),
      M(OutputSpec, loss_output),
      M(OutputSpec, buffer_mutation),
      M(OutputSpec, gradient_to_parameter),
      M(OutputSpec, gradient_to_user_input),
      M(OutputSpec, user_input_mutation),
      M(OutputSpec, token),
      M(OutputSpec, parameter_mutation),
      MR(GraphSignature, input_specs),
      MR(GraphSignature, output_specs),
      MR(ModuleCallSignature, inputs),
      MR(ModuleCallSignature, outputs),
      S(ModuleCallSignature, in_spec),
      S(ModuleCallSignature, out_spec),
      M(ModuleCallSignature, forward_arg_names),
      S(ModuleCallEntry, fqn),
      M(ModuleCallEntry, signature),
      S(PayloadMeta, path_name),
      B(PayloadMeta, is_param),
      B(PayloadMeta, use_pickle),
      M(PayloadMeta, tensor_meta),
      S(PayloadMetaEntry, key),
      M(PayloadMetaEntry, value),
      MR(PayloadConfig, config),
  };
  return table;
}

#undef M
#undef MR
#undef S
#undef SR
#undef I64
#undef I64R
#undef I32
#undef B
#undef BR
#undef D
#undef DR
#undef PT2LINT_ENTRY

}  // namespace

FieldSetters ir_field_setters(const pb::FieldDescriptor* field) {
  const pb::Descriptor* message = field->containing_type();
  for (const Entry& e : entries()) {
    if (e.message == message && e.field == field->name()) return e.setters;
  }
  return {};
}

int ir_field_setter_count() { return static_cast<int>(entries().size()); }

}  // namespace pt2lint
