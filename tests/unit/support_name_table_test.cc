// NameTable (src/support/name_table.h): dense ids in first-seen order, and names that differ
// in any one byte, or only in length, never share an id, whatever their length.
#include <gtest/gtest.h>

#include <string>
#include <vector>

#include "support/name_table.h"

namespace pt2lint {
namespace {

TEST(SupportNameTable, IdsAreDenseInFirstSeenOrder) {
  NameTable table;
  EXPECT_EQ(table.intern("b"), 0);
  EXPECT_EQ(table.intern("a"), 1);
  EXPECT_EQ(table.intern("b"), 0);
  EXPECT_EQ(table.find("a"), 1);
  EXPECT_EQ(table.find("c"), NameTable::kAbsent);
  EXPECT_EQ(table.intern(""), 2);
  EXPECT_EQ(table.find(""), 2);
  EXPECT_EQ(table.size(), 3u);
  EXPECT_EQ(table.name(1), "a");
}

TEST(SupportNameTable, EveryByteAndTheLengthTellNamesApart) {
  // Lengths 0..40 cover the whole words and each tail the hash reads (0, 1-3 and 4-7 bytes).
  std::vector<std::string> names;
  for (std::size_t length = 0; length <= 40; ++length) {
    const std::string base(length, 'x');
    names.push_back(base);
    for (std::size_t i = 0; i < length; ++i) {
      std::string changed = base;
      changed[i] = 'y';
      names.push_back(changed);
    }
  }
  NameTable table;
  for (std::size_t i = 0; i < names.size(); ++i) {
    EXPECT_EQ(table.intern(names[i]), static_cast<int>(i)) << '"' << names[i] << '"';
  }
  for (std::size_t i = 0; i < names.size(); ++i) {
    EXPECT_EQ(table.find(names[i]), static_cast<int>(i)) << '"' << names[i] << '"';
  }
}

}  // namespace
}  // namespace pt2lint
