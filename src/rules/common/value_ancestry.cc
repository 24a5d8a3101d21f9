#include "rules/common/value_ancestry.h"

#include <algorithm>
#include <deque>
#include <unordered_set>

#include "analysis/program_index.h"

namespace pt2lint {

std::vector<int> source_input_specs(const ProgramIndex& index, std::string_view value,
                                    std::size_t max_nodes) {
  std::vector<int> specs;
  std::unordered_set<int> seen_nodes;
  std::deque<std::string_view> pending = {value};
  std::vector<std::string_view> names;
  while (!pending.empty()) {
    std::string_view name = pending.front();
    pending.pop_front();
    std::optional<ValueDef> def = index.definition(name);
    if (!def) continue;
    if (def->placeholder >= 0) {
      std::optional<int> spec = index.input_spec_index(name);
      if (spec && std::find(specs.begin(), specs.end(), *spec) == specs.end())
        specs.push_back(*spec);
      continue;
    }
    if (seen_nodes.size() >= max_nodes || !seen_nodes.insert(def->node).second) continue;
    names.clear();
    for (const ir::NamedArgument& input : index.graph().nodes(def->node).inputs())
      collect_value_names(input.arg(), names);
    pending.insert(pending.end(), names.begin(), names.end());
  }
  return specs;
}

}  // namespace pt2lint
