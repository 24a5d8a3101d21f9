// Levenshtein distance and nearest-name lookup, for "did you mean" suggestions.
#pragma once

#include <cstddef>
#include <string>
#include <string_view>
#include <vector>

namespace pt2lint {

std::size_t edit_distance(std::string_view a, std::string_view b);

// The candidate closest to `name`, if its distance is at most max(2, len/3); else "".
std::string closest_match(std::string_view name, const std::vector<std::string_view>& candidates);

}  // namespace pt2lint
