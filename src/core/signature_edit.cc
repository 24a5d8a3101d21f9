#include "core/signature_edit.h"

#include <fmt/format.h>

namespace pt2lint {

std::string_view edit_op_name(EditOp op) {
  switch (op) {
    case EditOp::kRetarget: return "retarget";
    case EditOp::kMove: return "move";
    case EditOp::kMoveSpec: return "move_spec";
    case EditOp::kRename: return "rename";
    case EditOp::kRenameInput: return "rename_input";
    case EditOp::kAddWriteBack: return "add_write_back";
    case EditOp::kRemove: return "remove";
    case EditOp::kSetValue: return "set_value";
    case EditOp::kInputKind: return "input_kind";
    case EditOp::kAddInput: return "add_input";
  }
  return "";
}

std::string_view edit_evidence_name(EditEvidence evidence) {
  switch (evidence) {
    case EditEvidence::kNone: return "";
    case EditEvidence::kDataflow: return "dataflow";
    case EditEvidence::kLayout: return "layout";
    case EditEvidence::kExactNames: return "exact-names";
    case EditEvidence::kSavedState: return "saved-state";
    case EditEvidence::kMajority: return "majority";
    case EditEvidence::kNameSimilarity: return "name-similarity";
    case EditEvidence::kOriginal: return "original";
  }
  return "";
}

std::string describe_edit(const SignatureEdit& e) {
  switch (e.op) {
    case EditOp::kRetarget:
      if (e.kind == "user_output")
        return fmt::format("make output_specs[{}] a user_output", e.spec);
      return fmt::format("retarget output_specs[{}] to a {} of `{}`", e.spec, e.kind, e.target);
    case EditOp::kMove:
      return fmt::format("move output_specs[{0}] and graph output {0} together to position {1}",
                         e.spec, e.to);
    case EditOp::kMoveSpec:
      return fmt::format("move output_specs[{}] to position {} (graph outputs stay)", e.spec, e.to);
    case EditOp::kRename:
      if (e.spec < 0) return fmt::format("rename the saved state entry `{}` to `{}`", e.from, e.target);
      return fmt::format("rename output_specs[{}]'s target `{}` to `{}`", e.spec, e.from, e.target);
    case EditOp::kRenameInput:
      return fmt::format("input_specs[{}] names placeholder `{}` instead of `{}`", e.spec, e.value,
                         e.from);
    case EditOp::kAddWriteBack:
      return fmt::format("add a {} of `{}` to `{}` (output spec and graph output) at position {}",
                         e.kind, e.value, e.target, e.to);
    case EditOp::kRemove:
      return fmt::format("remove output_specs[{0}] and graph output {0}", e.spec);
    case EditOp::kSetValue:
      return fmt::format("output_specs[{0}] and graph output {0} name `{1}` instead of `{2}`",
                         e.spec, e.value, e.from);
    case EditOp::kInputKind:
      return fmt::format("make input_specs[{}] a {} input of `{}`", e.spec, e.kind, e.target);
    case EditOp::kAddInput:
      return fmt::format("insert at input_specs[{}] a {} input of `{}` for placeholder `{}`", e.spec,
                         e.kind, e.target, e.value);
  }
  return "";
}

}  // namespace pt2lint
