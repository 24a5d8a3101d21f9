// Which lifted state no program uses. A state is used when a node reads its placeholder, a
// graph output returns it, or a mutation output writes it back (an ATEN program's full
// overwrite of a buffer reads nothing from it, but still writes it on every call). Names that
// share one storage (src/analysis/state/state_storage.h) count as one, and so do the programs of
// one file, which share one state.
#pragma once

#include <vector>

#include "program.pb.h"

namespace pt2lint {

class ProgramIndex;

// Graph inputs whose input spec `wanted` accepts and that no program of `index`'s file uses
// under any name of their storage, in graph order. The other programs of the file are indexed
// only when this program has a candidate.
std::vector<int> unused_state_placeholders(const ProgramIndex& index,
                                           bool (*wanted)(const ir::InputSpec& spec));

}  // namespace pt2lint
