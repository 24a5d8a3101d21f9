// A working copy of a program's signature (input specs, output specs paired with their graph
// outputs) that signature edits apply to: the planner applies each edit it proposes, so later
// edits see the positions earlier ones left, and `pt2lint fix` applies the same edits to the
// program through the same code.
#pragma once

#include <string>
#include <string_view>
#include <vector>

#include "program.pb.h"
#include "core/signature_edit.h"
#include "support/status.h"

namespace pt2lint::diagnosis {

struct OutputSlot {
  ir::OutputSpec spec;
  ir::Argument output;  // graph output at the same position
  int original = -1;    // the spec's index in the program as loaded; -1 for an added one

  std::string_view value() const;  // the graph output's value name, or "" for a constant
  // A user-visible output (user output or loss), as opposed to a write-back or gradient.
  bool is_user() const { return spec.has_user_output() || spec.has_loss_output(); }
};

struct SignatureDraft {
  std::vector<ir::InputSpec> inputs;
  std::vector<OutputSlot> outputs;
  bool outputs_paired = true;  // false: `outputs` is empty and write_draft leaves them alone
};

// False when the program has a different number of output specs and graph outputs: then
// positions cannot be paired and no output edit can be stated.
bool read_draft(const ir::ExportedProgram& program, SignatureDraft& draft);
void write_draft(const SignatureDraft& draft, ir::ExportedProgram& program);

// Fails, saying why, when the edit does not apply (an index out of range, ...).
Status apply_edit(SignatureDraft& draft, const SignatureEdit& edit);

}  // namespace pt2lint::diagnosis
