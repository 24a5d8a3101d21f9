// Runs programs through the whole pipeline (index, every rule, contract, lower, check of the
// lowered program after a JSON round trip, diff, every report format) and checks the
// properties that make pt2lint an oracle rather than a crash test (docs/reliability.md):
//   - diff(x, x) is empty;
//   - lower(x) refuses, or gives a program on which check finds no error;
//   - contract(lower(lower(x))) == contract(lower(x));
//   - on a clean program, diff(x, lower(x)) finds no write lost, added, duplicated or retargeted;
//   - on a clean ATEN program, contract and effective mutation set name the same writes;
//   - swapping the targets of two same-shape writes of a clean program is reported by check;
//   - state passed to an op outside the schema table is in the contract's writes or possible
//     writes (unknown is never "none");
//   - the JSON and SARIF reports parse and have the structure their consumers read.
// Shared by the pipeline fuzzer, the deterministic property test and `pt2lint reduce`.
#pragma once

#include <string>
#include <vector>

#include "core/finding.h"
#include "program.pb.h"
#include "core/rule_registry.h"

namespace pt2lint::properties {

struct PipelineResult {
  std::vector<Finding> findings;         // what `check` reports on the programs themselves
  std::vector<std::string> violations;   // "property-name: detail", one per broken property
  int repairs_checked = 0;               // repairs `fix` would write, checked by fix-keeps-right-writes
};

struct PipelineOptions {
  bool render_reports = true;  // every format, with the JSON and SARIF checks
};

PipelineResult run_pipeline(const std::vector<ir::Program>& programs, const RuleRegistry& registry,
                            const PipelineOptions& options = {});

// fix-restores-the-seed: `mutant` is the clean program `seed` with its signature mutated only
// (write-back targets retargeted or swapped, output specs moved). A repair `fix` would write
// (one that checks clean, unsafe edits included) must give back the seed's signature: the same
// input specs, every write-back the seed's (state, value), under the renames the repair
// records, and the same outputs in the same order. Anything else is a wrong repair. Returns
// the violations ("fix-restores-the-seed: ..."); none when fix refuses or writes nothing.
std::vector<std::string> check_repair_restores_seed(const ir::Program& seed, const ir::Program& mutant,
                                                    const RuleRegistry& registry, int& repairs_checked);

// The property a violation text names: its part before ": ".
std::string violation_property(const std::string& violation);

}  // namespace pt2lint::properties
