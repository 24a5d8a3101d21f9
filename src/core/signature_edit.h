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

// What decided an edit (docs/fix.md, "Safe and unsafe edits"). Every kind but name similarity
// is proof: those edits are safe, applied by default. An edit decided by name similarity only
// is unsafe: listed, and applied only with `fix --unsafe-fixes`. kNone (no proof recorded) is
// never treated as safe.
enum class EditEvidence {
  kNone,
  kDataflow,        // update origins, last updates, fresh values (and the out_spec's leaf count)
  kLayout,          // the output layout PyTorch pairs by, or the positions of inputs
  kExactNames,      // the same names on both sides: a spec and the value it names, identical specs
  kSavedState,      // the saved weights and constants: is_param, torch.export's placeholder name
  kMajority,        // most of the sources (input spec, saved state, targets, placeholder) agree
  kNameSimilarity,  // only a near name picks among candidates of one shape and dtype
  kOriginal,        // `fix --against ORIGINAL`: the value ORIGINAL writes back, still computed here
                    // by the same ops from the same inputs
};

std::string_view edit_evidence_name(EditEvidence evidence);  // "dataflow", ... ("" for kNone)

struct EditProof {
  EditEvidence evidence = EditEvidence::kNone;
  std::string reason{};  // the evidence in words, for the report and `fix`'s messages
  bool safe() const { return evidence != EditEvidence::kNone && evidence != EditEvidence::kNameSimilarity; }
};

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
  EditProof proof{};           // what decided it (set by the repair planner)
};

// One line in words: "retarget output_specs[3] to buffer_mutation of `k_cache`".
std::string describe_edit(const SignatureEdit& edit);

}  // namespace pt2lint
