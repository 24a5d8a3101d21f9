// What the dataflow analysis adds to a program's summary in the report: its effective
// mutation set (`"mutations"`, `--show-mutations`) and the ops it had no schema for.
#pragma once

#include "core/check_result.h"

namespace pt2lint {

class ProgramIndex;

namespace dataflow {

void summarize_dataflow(const ProgramIndex& index, ProgramSummary& summary);

}  // namespace dataflow
}  // namespace pt2lint
