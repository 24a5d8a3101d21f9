#include "diagnosis/repair_program.h"

#include <algorithm>

#include "analysis/program_index.h"
#include "diagnosis/output_facts.h"
#include "diagnosis/repair_plan.h"

namespace pt2lint::diagnosis {

ProgramRepair repair_program(ir::Program& program) {
  ProgramRepair repair;
  read_draft(program.program(), repair.before);
  {
    const ProgramIndex index(program);  // borrows the program: done before it changes
    if (!graph_is_sound(index)) {
      repair.refusal = "the graph itself is not sound (a value is read before it is defined, or "
                       "defined twice), so no dataflow fact about its outputs can be trusted";
      return repair;
    }
    repair.causes = plan_repairs(index);
  }
  for (const RootCause& cause : repair.causes) {
    if (!cause.ambiguity.empty()) {
      repair.refusal = cause.message + ": " + cause.ambiguity;
      return repair;
    }
    repair.edits.insert(repair.edits.end(), cause.edits.begin(), cause.edits.end());
  }
  std::sort(repair.edits.begin(), repair.edits.end(),
            [](const SignatureEdit& a, const SignatureEdit& b) { return a.sequence < b.sequence; });
  repair.after = repair.before;
  for (const SignatureEdit& edit : repair.edits) {
    if (std::string error = apply_edit(repair.after, edit); !error.empty()) {
      repair.refusal = "an edit does not apply: " + error;
      repair.edits.clear();
      return repair;
    }
  }
  if (!repair.edits.empty()) write_draft(repair.after, *program.mutable_program());
  return repair;
}

}  // namespace pt2lint::diagnosis
