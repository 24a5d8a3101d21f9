// JsonWriter keeps every report valid JSON, whatever bytes a name carries: archive member
// names and paths are arbitrary bytes, and JSON must be UTF-8 (a pipeline fuzz finding).
#include "support/json_writer.h"

#include <sstream>

#include <gtest/gtest.h>

namespace pt2lint {
namespace {

std::string written(std::string_view text) {
  std::ostringstream out;
  JsonWriter(out).value(text);
  return out.str();
}

TEST(JsonWriter, BytesThatAreNotUtf8BecomeReplacementCharacters) {
  EXPECT_EQ(written("mod\xff\xfe" "el"), "\"mod\\ufffd\\ufffdel\"");
  EXPECT_EQ(written("\xe2\x82"), "\"\\ufffd\\ufffd\"");  // a sequence cut short
}

TEST(JsonWriter, WellFormedUtf8AndEscapesPassThrough) {
  EXPECT_EQ(written("caf\xc3\xa9 \xe2\x82\xac"), "\"caf\xc3\xa9 \xe2\x82\xac\"");
  EXPECT_EQ(written("a\"b\\c\n"), "\"a\\\"b\\\\c\\n\"");
}

}  // namespace
}  // namespace pt2lint
