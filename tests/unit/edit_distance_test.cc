#include "support/edit_distance.h"

#include <gtest/gtest.h>

namespace pt2lint {
namespace {

TEST(EditDistance, CountsInsertionsDeletionsAndSubstitutions) {
  EXPECT_EQ(edit_distance("", ""), 0u);
  EXPECT_EQ(edit_distance("abc", ""), 3u);
  EXPECT_EQ(edit_distance("kitten", "sitting"), 3u);
  EXPECT_EQ(edit_distance("k_cache", "v_cache"), 1u);
}

TEST(ClosestMatch, SuggestsOnlyNearMisses) {
  std::vector<std::string_view> names = {"mutation-target-resolves", "state-dict-mismatch"};
  EXPECT_EQ(closest_match("mutation-target-resolve", names), "mutation-target-resolves");
  EXPECT_EQ(closest_match("completely-different-thing", names), "");
}

}  // namespace
}  // namespace pt2lint
