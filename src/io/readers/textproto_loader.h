// pt2lint's own test format: a pt2lint.ir.ProgramSet (or one pt2lint.ir.Program) in protobuf
// text format, so rule tests can state an IR program directly.
#pragma once

#include <string_view>
#include <vector>

#include "io/readers/load_context.h"
#include "io/readers/program_output.h"
#include "program.pb.h"

namespace pt2lint {

void load_textproto(std::string_view text, std::string_view file_name, LoadContext& context,
                    ProgramOutput& out);

}  // namespace pt2lint
