// `pt2lint diff BEFORE AFTER` as a library call: load both files, learn what each side's
// auto_functionalized nodes say the other side's custom ops write, derive both mutation
// contracts and compare them, pairing renamed state by --rename or the mapping AFTER records.
// It prints nothing and decides no exit code: the caller prints the notes and refusals,
// renders the findings (src/cli/diff_command.cc) and maps the verdict to an exit code.
#pragma once

#include <optional>
#include <set>
#include <string>
#include <vector>

#include "contract/contract_diff.h"
#include "io/readers/loaded_programs.h"
#include "contract/mutation_contract.h"
#include "core/finding.h"
#include "support/status.h"

namespace pt2lint {

struct DiffOptions {
  std::string before;  // the original program file
  std::string after;   // its lowering
  std::string rename;  // --rename MAP.json; "": the mapping AFTER records
  std::vector<std::string> op_schemas;  // --op-schemas files
  // IDs of the opt-in contract rules turned on (--extend-select): literal-changed, metadata-lost.
  std::set<std::string, std::less<>> opt_in;
};

enum class DiffOutcome {
  kCompared,            // `findings` and `verdict` hold the comparison
  kBadRenameMap,        // --rename names no readable map (`error`)
  kUnusable,            // a side cannot be opened, is broken or holds no program
  kBadOpSchemas,        // an --op-schemas file is unreadable or has a bad line (`schema_problems`)
  kBadRecordedRenames,  // AFTER records a mapping that cannot be read (`mapping_errors`)
};

enum class ContractVerdict {
  kKept,         // no promise broken, every write decided (warnings and notes may exist)
  kBroken,       // an error finding
  kUndecidable,  // nothing broken, but some state's writes cannot be decided (PT414)
};

struct DiffReport {
  DiffOutcome outcome = DiffOutcome::kCompared;
  std::string error;               // kBadRenameMap: why
  bool before_unusable = false;    // kUnusable: BEFORE is the side refused (else AFTER)
  LoadedPrograms before, after;    // as loaded (kUnusable: why a side cannot be used)
  std::vector<std::string> schema_problems;
  // "learned from the auto_functionalized nodes of 'FILE': OP writes `x` (as if declared
  // `...`)", one per op learned, in the order learned; given with kBadOpSchemas too.
  std::vector<std::string> notes;
  std::vector<std::string> mapping_errors;  // "AFTER:PROGRAM: why", one per lookup that failed
  std::optional<RenameMap> given;           // the --rename map, when one was named
  std::vector<ProgramContract> before_contracts, after_contracts;
  std::vector<Finding> findings;  // one per broken promise, in the order found
  ContractVerdict verdict = ContractVerdict::kKept;
};

DiffReport diff_programs(const DiffOptions& options);

// The renames `diff` pairs the states of the AFTER contract `after` by: --rename's map when
// one was given, else the mapping AFTER's program of that name records (none: empty). Fails
// with "AFTER:PROGRAM: why" when the recorded mapping is unreadable.
Expected<RenameMap> diff_renames(const DiffReport& report, const std::string& after_path,
                                 const ProgramContract& after);

}  // namespace pt2lint
