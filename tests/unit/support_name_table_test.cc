// NameTable (src/support/name_table.h): dense ids in first-seen order, and names that differ
// in any one byte, or only in length, never share an id, whatever their length.
#include <gtest/gtest.h>

#include <cstdint>
#include <string>
#include <unordered_set>
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

TEST(SupportNameTable, LongNamesTellApartAnyOneByteChanged) {
  // Around and past the 64 bytes from which the hash runs four lanes (stack traces), with
  // the same change at the same place in each lane: a fold that lets such lanes cancel
  // collides here. Ids stay exact whatever the hash; the full 64-bit hashes must differ too.
  std::unordered_set<std::uint64_t> hashes;
  std::size_t names = 0;
  NameTable table;
  for (const std::size_t length : {63u, 64u, 65u, 95u, 96u, 97u, 100u, 128u, 129u, 1200u}) {
    const std::string base(length, 'x');
    std::vector<std::string> family{base};
    for (std::size_t i = 0; i < length; ++i) {
      for (const char c : {'y', '\x01', '\x80'}) {
        std::string changed = base;
        changed[i] = c;
        family.push_back(changed);
      }
    }
    for (const std::string& name : family) {
      EXPECT_EQ(table.intern(name), static_cast<int>(names)) << length;
      EXPECT_TRUE(hashes.insert(NameTable::hash(name)).second) << "length " << length << ", name #" << names;
      ++names;
    }
  }
  EXPECT_EQ(table.size(), names);
}

}  // namespace
}  // namespace pt2lint
