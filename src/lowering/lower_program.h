// `pt2lint lower` as a library call: load the file, refuse what cannot be lowered soundly,
// functionalize every program, check each result and write them in the input's layout. It
// prints nothing and decides no exit code: the caller prints the summaries or the refusal
// (src/cli/lower_command.cc). The property checks lower programs in memory with the same
// per-program step (lower_in_memory).
#pragma once

#include <optional>
#include <ostream>
#include <string>
#include <vector>

#include "io/readers/loaded_programs.h"
#include "io/writers/output_file.h"
#include "lowering/rename_nested.h"
#include "program.pb.h"
#include "support/status.h"

namespace pt2lint::opschema {
class SchemaCatalog;
}

namespace pt2lint::lowering {

// How one program is lowered.
struct LowerSettings {
  const opschema::SchemaCatalog* schemas = nullptr;  // --op-schemas (the bundled files always)
  std::string input;           // the file's path, named in the `schemas --missing` hint
  bool rename_nested = false;  // --rename-nested: flat names for dotted buffers, recorded
};

// What lowering one program did.
struct ProgramLowering {
  std::string program;  // its name
  int writes = 0;       // in-place writes functionalized
  std::optional<Renames> renames;  // with rename_nested: the buffers renamed (maybe none)
};

// Refuses state passed to constructs pt2lint does not model, functionalizes `program` in
// place, renames nested buffers when asked, and checks the result as ATEN. On failure the
// message says why lower refuses (`program` is then unspecified); a failure of the final
// check ends in "; nothing was written".
Expected<ProgramLowering> lower_in_memory(ir::Program& program, const LowerSettings& settings);

struct LowerOptions {
  std::string input;
  std::string output;                       // "-": to `standard_output`
  std::ostream* standard_output = nullptr;  // what "-" writes to
  OutputFormat format = OutputFormat::kSameAsInput;
  bool rename_nested = false;
  std::vector<std::string> op_schemas;  // --op-schemas files
};

enum class LowerOutcome {
  kLowered,       // every program lowered and written
  kUnusable,      // the input cannot be opened, is broken or holds no program (`input` says)
  kBadOpSchemas,  // an --op-schemas file is unreadable or has a bad line (`schema_problems`)
  kRefused,       // a program cannot be lowered soundly (`error`); nothing was written
  kNotWritten,    // lowered, but writing the output failed (`error`)
};

struct LowerReport {
  LowerOutcome outcome = LowerOutcome::kUnusable;
  LoadedPrograms input;  // as loaded (kUnusable: why it cannot be used); lowered once lowered
  std::vector<std::string> schema_problems;
  std::vector<ProgramLowering> lowered;  // in program order, up to a refusal
  std::string error;  // kRefused: "IN:PROGRAM: cannot lower: why"; kNotWritten: why
};

LowerReport lower_program(const LowerOptions& options);

}  // namespace pt2lint::lowering
