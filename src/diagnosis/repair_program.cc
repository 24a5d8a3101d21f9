#include "diagnosis/repair_program.h"

#include <algorithm>

#include "analysis/program_index.h"
#include "diagnosis/output_facts.h"
#include "diagnosis/repair_plan.h"

namespace pt2lint::diagnosis {

namespace {

bool rename_entry(ir::StateSource& source, const std::string& from, const std::string& to) {
  if (!source.present()) return false;
  for (ir::PayloadMetaEntry& entry : *source.mutable_config()->mutable_config()) {
    if (entry.key() != from) continue;
    entry.set_key(to);
    return true;
  }
  return false;
}

}  // namespace

ProgramRepair repair_program(ir::Program& program, const RepairOptions& options) {
  ProgramRepair repair;
  read_draft(program.program(), repair.before);
  {
    const ProgramIndex index(program);  // borrows the program: done before it changes
    if (!graph_is_sound(index)) {
      repair.refusal = "the graph itself is not sound (a value is read before it is defined, or "
                       "defined twice), so no dataflow fact about its outputs can be trusted";
      return repair;
    }
    repair.causes = plan_repairs(index, options.original_states);
  }
  for (const RootCause& cause : repair.causes) {
    if (!cause.ambiguity.empty()) {
      repair.refusal = cause.message + ": " + cause.ambiguity;
      return repair;
    }
    repair.edits.insert(repair.edits.end(), cause.edits.begin(), cause.edits.end());
    if (cause.kind == "state-renamed")
      for (const SignatureEdit& edit : cause.edits) repair.followed_renames.emplace_back(edit.from, edit.target);
  }
  if (!options.unsafe_fixes) {
    std::string unsafe;
    for (const SignatureEdit& edit : repair.edits) {
      if (!edit.proof.safe())
        unsafe += (unsafe.empty() ? "" : "; ") + describe_edit(edit) + " (" + edit.proof.reason + ")";
    }
    if (!unsafe.empty()) {
      repair.refusal = "the repair needs --unsafe-fixes: decided by name similarity only: " + unsafe;
      repair.needs_unsafe = true;
      repair.edits.clear();
      return repair;
    }
  }
  std::sort(repair.edits.begin(), repair.edits.end(),
            [](const SignatureEdit& a, const SignatureEdit& b) { return a.sequence < b.sequence; });
  repair.after = repair.before;
  for (const SignatureEdit& edit : repair.edits) {
    if (const Status applied = apply_edit(repair.after, edit); !applied.ok()) {
      repair.refusal = "an edit does not apply: " + applied.message();
      repair.edits.clear();
      return repair;
    }
  }
  for (const SignatureEdit& edit : repair.edits) {
    if (edit.op != EditOp::kRename || edit.spec >= 0) continue;  // a saved entry's rename
    if (!rename_entry(*program.mutable_weights(), edit.from, edit.target) &&
        !rename_entry(*program.mutable_constants(), edit.from, edit.target)) {
      repair.refusal = "an edit does not apply: no saved state entry `" + edit.from + "`";
      repair.edits.clear();
      return repair;
    }
    repair.state_entries_renamed = true;
  }
  if (!repair.edits.empty()) write_draft(repair.after, *program.mutable_program());
  return repair;
}

}  // namespace pt2lint::diagnosis
