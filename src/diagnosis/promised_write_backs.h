// `pt2lint fix --against ORIGINAL`: a lowered or rewritten program lost write-backs that
// ORIGINAL's mutation contract promises (`diff`'s written-state-lost). Each one comes back when
// the program still computes the value: the state's last update, which no output returns, or the
// very value ORIGINAL writes back, computed here by the same ops from the same inputs. A write
// whose value the program no longer computes is an erased computation: no signature edit can
// restore it, and it is named as such (docs/fix.md, "fix --against").
#pragma once

#include <string>
#include <vector>

#include "core/root_cause.h"
#include "diagnosis/signature_draft.h"
#include "program.pb.h"

namespace pt2lint::diagnosis {

// A write ORIGINAL promises that the program no longer makes.
struct PromisedWrite {
  std::string target;          // the state, as the program names it (after any recorded rename)
  std::string original_value;  // the value ORIGINAL writes back to it
  std::string original_target;  // the state as ORIGINAL names it, for messages
};

struct PromisedRepair {
  std::vector<RootCause> causes;     // one per write restored
  std::vector<SignatureEdit> edits;  // applied to the program, in order
  std::vector<std::string> erased;   // one line per write no edit can restore
  std::string refusal;               // non-empty: nothing applied, and why
  SignatureDraft before, after;
};

// Restores what it can of `missing` in `program` (which `fix` has already repaired in memory)
// and applies the edits, unless a write is erased or cannot be told: then nothing is applied.
PromisedRepair restore_promised_write_backs(ir::Program& program, const ir::Program& original,
                                            const std::vector<PromisedWrite>& missing);

// When the repair from the program's own evidence is refused (ambiguous), ORIGINAL can decide:
// if the program declares the same inputs as ORIGINAL and returns the same values, each computed
// by the same ops from the same inputs, ORIGINAL's output signature is this graph's. The outputs
// are moved into ORIGINAL's order and each spec retargeted to ORIGINAL's (proof: original).
// Refused (nothing applied, `refusal` says why) when any of that does not hold.
PromisedRepair adopt_original_outputs(ir::Program& program, const ir::Program& original);

}  // namespace pt2lint::diagnosis
