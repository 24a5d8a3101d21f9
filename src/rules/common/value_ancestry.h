// Which lifted state a value is computed from, for "did you mean" notes on mutation specs:
// a write-back value computed from `b_1_running_var` most likely belongs to `1.running_var`.
#pragma once

#include <cstddef>
#include <string_view>
#include <vector>

namespace pt2lint {

class ProgramIndex;

// Nodes visited per query; mutation values sit a few nodes from their state's placeholder,
// and the bound keeps one query cheap on a 10,000-node program.
inline constexpr std::size_t kMaxAncestryNodes = 512;

// Indices (into input_specs) of the placeholders `value` is computed from, walking producers
// backwards through the top-level graph, in first-reached order.
std::vector<int> source_input_specs(const ProgramIndex& index, std::string_view value,
                                    std::size_t max_nodes = kMaxAncestryNodes);

}  // namespace pt2lint
