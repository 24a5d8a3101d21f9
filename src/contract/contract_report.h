// `pt2lint contract` output: a file's contracts as text for people or JSON for tools. Only
// promises are printed, never value or node names, so two programs have the same contract
// exactly when they print the same.
#pragma once

#include <ostream>
#include <vector>

#include "contract/mutation_contract.h"

namespace pt2lint {

void print_contracts_text(const std::vector<ProgramContract>& contracts, std::ostream& out);
void print_contracts_json(const std::vector<ProgramContract>& contracts, std::ostream& out);

}  // namespace pt2lint
