// Writes lowered programs back out in the layout they came in: a PT2 archive (program JSON
// and, after renaming, the state configs replaced; every other record copied through), a
// legacy zip, a bare program JSON file, or the IR's textproto.
#pragma once

#include <filesystem>
#include <string>
#include <vector>

#include "program.pb.h"
#include "support/status.h"

namespace pt2lint::lowering {

enum class OutputFormat {
  kSameAsInput,  // the input's own layout
  kTextproto,    // the IR, as a ProgramSet textproto
};

// `programs` all come from `input` (load_file order). `state_renamed`: the weights and
// constants configs changed too and must be rewritten. Fails saying what went wrong.
Status write_lowered(const std::filesystem::path& input, const std::vector<ir::Program>& programs,
                     const std::filesystem::path& output, OutputFormat format, bool state_renamed);

}  // namespace pt2lint::lowering
