// `pt2lint contract` output: a file's contracts as text for people or JSON for tools. Only
// promises are printed, never value or node names, so two programs have the same contract
// exactly when they print the same.
#pragma once

#include <ostream>
#include <vector>

#include "contract/mutation_contract.h"

namespace pt2lint {

// `shared` lists the state the programs of a multi-program archive share (derive_shared_state);
// empty for a single program.
void print_contracts_text(const std::vector<ProgramContract>& contracts, std::ostream& out,
                          const std::vector<SharedStatePromise>& shared = {});
void print_contracts_json(const std::vector<ProgramContract>& contracts, std::ostream& out,
                          const std::vector<SharedStatePromise>& shared = {});

}  // namespace pt2lint
