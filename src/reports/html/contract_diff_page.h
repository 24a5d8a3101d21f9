// `pt2lint diff --format html`: the two contracts side by side, state by state, with the
// write-back before and after and every difference highlighted; the findings above them.
// The page a backend engineer opens when the regression oracle fails.
#pragma once

#include <functional>
#include <ostream>
#include <string>
#include <vector>

#include "contract/contract_diff.h"
#include "contract/mutation_contract.h"
#include "reports/renderer.h"

namespace pt2lint::html {

struct ContractDiffPage {
  std::string before_path, after_path;
  const std::vector<ProgramContract>* before = nullptr;
  const std::vector<ProgramContract>* after = nullptr;
  std::function<RenameMap(const ProgramContract& after)> renames_for;
  const std::vector<Finding>* findings = nullptr;
};

void write_contract_diff_page(const ContractDiffPage& page, const RenderOptions& options,
                              std::ostream& out);

}  // namespace pt2lint::html
