#include "diagnosis/signature_draft.h"

#include <fmt/format.h>

#include "analysis/program_index.h"

namespace pt2lint::diagnosis {
namespace {

ir::Argument tensor_output(std::string_view value) {
  ir::Argument out;
  out.mutable_as_tensor()->set_name(std::string(value));
  return out;
}

bool valid(int index, std::size_t size) { return index >= 0 && static_cast<std::size_t>(index) < size; }

void set_target(ir::OutputSpec& spec, const std::string& target) {
  if (spec.has_buffer_mutation()) spec.mutable_buffer_mutation()->set_buffer_name(target);
  if (spec.has_parameter_mutation()) spec.mutable_parameter_mutation()->set_parameter_name(target);
  if (spec.has_user_input_mutation()) spec.mutable_user_input_mutation()->set_user_input_name(target);
  if (spec.has_gradient_to_parameter()) spec.mutable_gradient_to_parameter()->set_parameter_name(target);
  if (spec.has_gradient_to_user_input()) spec.mutable_gradient_to_user_input()->set_user_input_name(target);
}

void set_input_name(ir::InputSpec& spec, const std::string& name) {
  switch (spec.kind_case()) {
    case ir::InputSpec::kUserInput:
      if (spec.user_input().arg().has_as_tensor())
        spec.mutable_user_input()->mutable_arg()->mutable_as_tensor()->set_name(name);
      break;
    case ir::InputSpec::kParameter: spec.mutable_parameter()->mutable_arg()->set_name(name); break;
    case ir::InputSpec::kBuffer: spec.mutable_buffer()->mutable_arg()->set_name(name); break;
    case ir::InputSpec::kTensorConstant: spec.mutable_tensor_constant()->mutable_arg()->set_name(name); break;
    default: break;
  }
}

// A spec of `kind` ("buffer_mutation", "user_output", "gradient_to_parameter", ...) for
// `output`, writing to (or the gradient of) `target`.
ir::OutputSpec make_output_spec(std::string_view kind, const ir::Argument& output,
                                std::string_view target) {
  ir::OutputSpec spec;
  const std::string value(argument_value_name(output));
  if (kind == "user_output") {
    *spec.mutable_user_output()->mutable_arg() = output;
  } else if (kind == "buffer_mutation") {
    spec.mutable_buffer_mutation()->mutable_arg()->set_name(value);
    spec.mutable_buffer_mutation()->set_buffer_name(std::string(target));
  } else if (kind == "parameter_mutation") {
    spec.mutable_parameter_mutation()->mutable_arg()->set_name(value);
    spec.mutable_parameter_mutation()->set_parameter_name(std::string(target));
  } else if (kind == "user_input_mutation") {
    spec.mutable_user_input_mutation()->mutable_arg()->set_name(value);
    spec.mutable_user_input_mutation()->set_user_input_name(std::string(target));
  } else if (kind == "gradient_to_parameter") {
    spec.mutable_gradient_to_parameter()->mutable_arg()->set_name(value);
    spec.mutable_gradient_to_parameter()->set_parameter_name(std::string(target));
  } else if (kind == "gradient_to_user_input") {
    spec.mutable_gradient_to_user_input()->mutable_arg()->set_name(value);
    spec.mutable_gradient_to_user_input()->set_user_input_name(std::string(target));
  }
  return spec;
}

}  // namespace

std::string_view OutputSlot::value() const { return argument_value_name(output); }

bool read_draft(const ir::ExportedProgram& program, SignatureDraft& draft) {
  const ir::GraphSignature& signature = program.graph_module().signature();
  const ir::Graph& graph = program.graph_module().graph();
  draft.inputs.assign(signature.input_specs().begin(), signature.input_specs().end());
  draft.outputs.clear();
  draft.outputs_paired = signature.output_specs_size() == graph.outputs_size();
  if (!draft.outputs_paired) return false;
  for (int i = 0; i < graph.outputs_size(); ++i)
    draft.outputs.push_back({signature.output_specs(i), graph.outputs(i), i});
  return true;
}

void write_draft(const SignatureDraft& draft, ir::ExportedProgram& program) {
  ir::GraphSignature& signature = *program.mutable_graph_module()->mutable_signature();
  ir::Graph& graph = *program.mutable_graph_module()->mutable_graph();
  signature.clear_input_specs();
  for (const ir::InputSpec& spec : draft.inputs) *signature.add_input_specs() = spec;
  if (!draft.outputs_paired) return;
  signature.clear_output_specs();
  graph.clear_outputs();
  for (const OutputSlot& slot : draft.outputs) {
    *signature.add_output_specs() = slot.spec;
    *graph.add_outputs() = slot.output;
  }
}

Status apply_edit(SignatureDraft& draft, const SignatureEdit& e) {
  auto& slots = draft.outputs;
  // A rename without an output spec renames a saved state entry: not the signature (repair_program).
  if (e.op == EditOp::kRename && e.spec < 0) return {};
  const bool input_edit = e.op == EditOp::kRenameInput || e.op == EditOp::kInputKind;
  const bool adds = e.op == EditOp::kAddWriteBack || e.op == EditOp::kAddInput;
  if (!adds && !valid(e.spec, input_edit ? draft.inputs.size() : slots.size()))
    return Status::error(fmt::format("{}: no spec {}", edit_op_name(e.op), e.spec));
  switch (e.op) {
    case EditOp::kRetarget:
      slots[e.spec].spec = make_output_spec(e.kind, slots[e.spec].output, e.target);
      break;
    case EditOp::kRename: set_target(slots[e.spec].spec, e.target); break;
    case EditOp::kMove: {
      if (!valid(e.to, slots.size())) return Status::error(fmt::format("move: no position {}", e.to));
      OutputSlot slot = std::move(slots[e.spec]);
      slots.erase(slots.begin() + e.spec);
      slots.insert(slots.begin() + e.to, std::move(slot));
      break;
    }
    case EditOp::kMoveSpec: {
      if (!valid(e.to, slots.size())) return Status::error(fmt::format("move_spec: no position {}", e.to));
      std::vector<std::pair<ir::OutputSpec, int>> specs;
      for (OutputSlot& slot : slots) specs.emplace_back(std::move(slot.spec), slot.original);
      auto moved = std::move(specs[e.spec]);
      specs.erase(specs.begin() + e.spec);
      specs.insert(specs.begin() + e.to, std::move(moved));
      for (std::size_t i = 0; i < slots.size(); ++i)
        std::tie(slots[i].spec, slots[i].original) = std::move(specs[i]);
      break;
    }
    case EditOp::kAddWriteBack: {
      if (e.to < 0 || static_cast<std::size_t>(e.to) > slots.size())
        return Status::error(fmt::format("add_write_back: no position {}", e.to));
      OutputSlot slot{{}, tensor_output(e.value), -1};
      slot.spec = make_output_spec(e.kind, slot.output, e.target);
      slots.insert(slots.begin() + e.to, std::move(slot));
      break;
    }
    case EditOp::kRemove: slots.erase(slots.begin() + e.spec); break;
    case EditOp::kSetValue: {
      OutputSlot& slot = slots[e.spec];
      slot.output = tensor_output(e.value);
      slot.spec = make_output_spec(output_spec_kind(slot.spec), slot.output,
                                   output_spec_target(slot.spec));
      break;
    }
    case EditOp::kRenameInput: set_input_name(draft.inputs[e.spec], e.value); break;

    case EditOp::kAddInput: {
      if (e.spec < 0 || static_cast<std::size_t>(e.spec) > draft.inputs.size())
        return Status::error(fmt::format("add_input: no position {}", e.spec));
      ir::InputSpec spec;
      const StateKind kind = parse_state_kind(e.kind).value_or(StateKind::kNone);
      if (kind == StateKind::kBuffer) {
        spec.mutable_buffer()->mutable_arg()->set_name(e.value);
        spec.mutable_buffer()->set_buffer_name(e.target);
        if (e.persistent) spec.mutable_buffer()->set_persistent(*e.persistent);
      } else if (kind == StateKind::kParameter) {
        spec.mutable_parameter()->mutable_arg()->set_name(e.value);
        spec.mutable_parameter()->set_parameter_name(e.target);
      } else if (kind == StateKind::kTensorConstant) {
        spec.mutable_tensor_constant()->mutable_arg()->set_name(e.value);
        spec.mutable_tensor_constant()->set_tensor_constant_name(e.target);
      } else {
        return Status::error("add_input: only a buffer, parameter or tensor constant can be restored");
      }
      draft.inputs.insert(draft.inputs.begin() + e.spec, std::move(spec));
      break;
    }
    case EditOp::kInputKind: {
      ir::InputSpec& spec = draft.inputs[e.spec];
      const std::string name(input_spec_arg_name(spec));
      const StateKind kind = parse_state_kind(e.kind).value_or(StateKind::kNone);
      if (kind == StateKind::kParameter && spec.has_parameter()) {  // the same kind: the state's name changes
        spec.mutable_parameter()->set_parameter_name(e.target);
        break;
      }
      if (kind == StateKind::kTensorConstant && spec.has_tensor_constant()) {
        spec.mutable_tensor_constant()->set_tensor_constant_name(e.target);
        break;
      }
      if (kind != StateKind::kBuffer) return Status::error("input_kind: only a buffer kind can be restored");
      ir::InputSpec buffer;
      buffer.mutable_buffer()->mutable_arg()->set_name(name);
      buffer.mutable_buffer()->set_buffer_name(e.target);
      if (e.persistent) buffer.mutable_buffer()->set_persistent(*e.persistent);
      spec = std::move(buffer);
      break;
    }
  }
  return {};
}

}  // namespace pt2lint::diagnosis
