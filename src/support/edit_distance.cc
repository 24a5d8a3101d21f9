#include "support/edit_distance.h"

#include <algorithm>
#include <numeric>

namespace pt2lint {

std::size_t edit_distance(std::string_view a, std::string_view b) {
  std::vector<std::size_t> row(b.size() + 1);
  std::iota(row.begin(), row.end(), std::size_t{0});
  for (std::size_t i = 1; i <= a.size(); ++i) {
    std::size_t diagonal = row[0];
    row[0] = i;
    for (std::size_t j = 1; j <= b.size(); ++j) {
      std::size_t above = row[j];
      row[j] = std::min({row[j] + 1, row[j - 1] + 1, diagonal + (a[i - 1] == b[j - 1] ? 0 : 1)});
      diagonal = above;
    }
  }
  return row[b.size()];
}

std::string closest_match(std::string_view name, const std::vector<std::string_view>& candidates) {
  std::size_t best = std::max<std::size_t>(2, name.size() / 3) + 1;
  std::string_view winner;
  for (std::string_view candidate : candidates) {
    std::size_t distance = edit_distance(name, candidate);
    if (distance < best) {
      best = distance;
      winner = candidate;
    }
  }
  return std::string(winner);
}

}  // namespace pt2lint
