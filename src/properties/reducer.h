// Shrinks a program that shows a problem (a finding, a broken property, a crash) to a small
// one that still shows it: greedy deletion of programs, nodes, outputs, inputs, metadata and
// node arguments, repeated until no single deletion keeps the problem. `pt2lint reduce` uses
// it to turn fuzz findings and bug reports into goldens (tests/golden/regressions/).
#pragma once

#include <functional>

#include "program.pb.h"

namespace pt2lint::properties {

// True when the candidate still shows the problem.
using StillFails = std::function<bool(const ir::ProgramSet&)>;

struct ReduceStats {
  int tries = 0;      // candidates evaluated
  int kept = 0;       // deletions kept
};

ir::ProgramSet reduce(ir::ProgramSet set, const StillFails& still_fails, ReduceStats* stats = nullptr);

}  // namespace pt2lint::properties
