// A repair of a program's graph signature, as data: what `pt2lint fix` applies and what the
// JSON report lists under `fix.edits`. Edits of one fix apply in order; each index refers to
// the signature as the edits before it left it.
#pragma once

#include <optional>
#include <string>
#include <string_view>

namespace pt2lint {

enum class EditOp {
  kRetarget,      // output spec `spec` becomes `kind` (a mutation of `target`, or user_output)
  kMove,          // output spec `spec` and graph output `spec` move together to position `to`
  kMoveSpec,      // only output spec `spec` moves to `to` (graph outputs stay)
  kRename,        // output spec `spec`'s target `from` becomes `target` (one name mapping)
  kRenameInput,   // input spec `spec` names placeholder `value` instead of `from`
  kAddWriteBack,  // a `kind` output spec writing `value` to `target`, with its graph output, at `to`
  kRemove,        // output spec `spec` and graph output `spec` are removed
  kSetValue,      // output spec `spec` and graph output `spec` name `value` instead of `from`
  kInputKind,     // input spec `spec` becomes a `kind` input of `target` (same placeholder)
  kAddInput,      // a `kind` input spec of `target` for placeholder `value`, inserted at `spec`
};

std::string_view edit_op_name(EditOp op);  // "retarget", "move", ...

struct SignatureEdit {
  EditOp op = EditOp::kRetarget;
  int spec = -1;               // index into output_specs (input_specs for *Input* ops)
  int to = -1;                 // destination position (move, move_spec, add_write_back)
  std::string kind{};            // spec kind after the edit: "buffer_mutation", "user_output", ...
  std::string target{};          // state FQN (user-input placeholder name) after the edit
  std::string value{};           // value name after the edit
  std::string from{};            // the name the edit replaces (rename, set_value)
  std::optional<bool> persistent{};  // for kInputKind to a buffer
  int sequence = 0;            // order of application among all edits of the program
};

// One line in words: "retarget output_specs[3] to buffer_mutation of `k_cache`".
std::string describe_edit(const SignatureEdit& edit);

}  // namespace pt2lint
