// `pt2lint diff`: checks that a lowered program keeps the mutation contract of the program
// it came from. Each broken promise is a finding with its own rule (core/rule_catalogue.def, PT4xx).
#pragma once

#include <functional>
#include <map>
#include <string>
#include <vector>

#include "contract/mutation_contract.h"
#include "core/diagnostic_sink.h"

namespace pt2lint {

// BEFORE's state FQN -> the name AFTER gives it (`lower --rename-nested`, a backend's lifting).
using RenameMap = std::map<std::string, std::string>;

// Findings are filed under AFTER's program name.
void diff_contracts(const ProgramContract& before, const ProgramContract& after,
                    const RenameMap& renames, DiagnosticSink& sink);

// Pairs the programs of two files by name and diffs each pair; a program present on one
// side only is a program-missing finding. `renames_for(after)` gives the mapping to use.
void diff_program_sets(const std::vector<ProgramContract>& before,
                       const std::vector<ProgramContract>& after,
                       const std::function<RenameMap(const ProgramContract& after)>& renames_for,
                       DiagnosticSink& sink);

}  // namespace pt2lint
