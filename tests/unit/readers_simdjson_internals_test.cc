// simdjson_internals.h: the jump over an unread object leaves simdjson's iterator where its
// own skip would (the rest of the document reads the same), and moves nothing when the
// count or the text it is given does not match the structural index.
#include <gtest/gtest.h>

#include <cstdint>
#include <functional>
#include <string>
#include <string_view>
#include <vector>

#include <simdjson.h>

#include "io/readers/json/simdjson_internals.h"

namespace pt2lint::json_reader {
namespace {

// The value of "a" below: 17 tokens, a '}' inside a string among them.
constexpr std::string_view kObject = R"({"b": [1, {"c": 2}], "d": "}"})";
constexpr std::uint32_t kTokens = 17;

// Reads {"a": <kObject>, "e": 3, "f": {"g": 4}} and returns what follows "a", after
// `at_a` is done with the unread value of "a" (and says whether its jump happened).
std::string read_after_a(const std::function<bool(od::document&, od::parser&, const char*)>& at_a,
                         bool& jumped) {
  const std::string text = std::string(R"({"a": )") + std::string(kObject) + R"(, "e": 3, "f": {"g": 4}})";
  simdjson::padded_string json(text);
  od::parser parser;
  od::document doc;
  EXPECT_EQ(parser.iterate(json).get(doc), simdjson::SUCCESS);
  od::object root;
  EXPECT_EQ(doc.get_object().get(root), simdjson::SUCCESS);
  std::string read;
  for (auto result : root) {
    od::field field;
    EXPECT_EQ(std::move(result).get(field), simdjson::SUCCESS);
    std::string_view key;
    EXPECT_EQ(field.unescaped_key().get(key), simdjson::SUCCESS);
    od::value value = field.value();
    if (key == "a") {
      jumped = at_a(doc, parser, value.raw_json_token().data());
      continue;
    }
    if (key == "f") {
      od::object f;
      EXPECT_EQ(value.get_object().get(f), simdjson::SUCCESS);
      std::int64_t g = 0;
      EXPECT_EQ(f["g"].get_int64().get(g), simdjson::SUCCESS);
      read += "f.g=" + std::to_string(g) + ";";
    } else {
      std::int64_t e = 0;
      EXPECT_EQ(value.get_int64().get(e), simdjson::SUCCESS);
      read += std::string(key) + "=" + std::to_string(e) + ";";
    }
  }
  return read;
}

TEST(ReadersSimdjsonInternals, AJumpLeavesTheIteratorWhereASkipWould) {
  bool jumped = true;
  const std::string skipped =
      read_after_a([](od::document&, od::parser&, const char*) { return false; }, jumped);
  EXPECT_EQ(skipped, "e=3;f.g=4;");
  const std::string after_jump = read_after_a(
      [](od::document& doc, od::parser& parser, const char* start) {
        return jump_over_unread_object(doc, parser, start, kObject.size(), kTokens);
      },
      jumped);
  EXPECT_TRUE(jumped);
  EXPECT_EQ(after_jump, skipped);
}

TEST(ReadersSimdjsonInternals, NothingMovesWhenTheCountOrTheTextDoesNotMatch) {
  const std::vector<std::function<bool(od::document&, od::parser&, const char*)>> wrong = {
      [](od::document& d, od::parser& p, const char* s) {
        return jump_over_unread_object(d, p, s, kObject.size(), kTokens - 1);
      },
      [](od::document& d, od::parser& p, const char* s) {
        return jump_over_unread_object(d, p, s, kObject.size(), kTokens + 1);
      },
      [](od::document& d, od::parser& p, const char* s) {
        return jump_over_unread_object(d, p, s, kObject.size() - 1, kTokens);
      },
      [](od::document& d, od::parser& p, const char* s) {
        return jump_over_unread_object(d, p, s + 1, kObject.size() - 1, kTokens);
      },
      [](od::document& d, od::parser& p, const char* s) {
        return jump_over_unread_object(d, p, s, kObject.size(), 1u << 30);
      },
  };
  for (std::size_t i = 0; i < wrong.size(); ++i) {
    bool jumped = true;
    EXPECT_EQ(read_after_a(wrong[i], jumped), "e=3;f.g=4;") << i;
    EXPECT_FALSE(jumped) << i;
  }
}

TEST(ReadersSimdjsonInternals, NextTokenCountsAnObjectsTokens) {
  simdjson::padded_string json{std::string(kObject)};
  od::parser parser;
  od::document doc;
  ASSERT_EQ(parser.iterate(json).get(doc), simdjson::SUCCESS);
  const std::uint32_t* before = next_token(doc);
  od::object object;
  ASSERT_EQ(doc.get_object().get(object), simdjson::SUCCESS);
  EXPECT_EQ(next_token(doc), before + 1);  // past the '{'
  for (auto result : object) {
    od::field field;
    ASSERT_EQ(std::move(result).get(field), simdjson::SUCCESS);  // each value skipped
  }
  EXPECT_EQ(next_token(doc) - before, kTokens);
  ASSERT_NE(stage1_of(parser), nullptr);
  EXPECT_EQ(stage1_of(parser)->n_structural_indexes, kTokens);
}

}  // namespace
}  // namespace pt2lint::json_reader
