// Issue 24, what a check does not read: UTF-8 decoded in chunks (a large extra/ file), the
// per-file CPU budget, and the HTML report's note links found through an index.
#include <gtest/gtest.h>

#include <string>

#include "io/readers/zip/utf8_stream.h"
#include "reports/html/note_targets.h"
#include "support/cpu_budget.h"

namespace pt2lint {
namespace {

bool utf8_in_chunks(const std::string& text, std::size_t chunk) {
  Utf8Stream stream;
  for (std::size_t at = 0; at < text.size(); at += chunk) {
    if (!stream.add(std::string_view(text).substr(at, chunk))) return false;
  }
  return stream.finish();
}

TEST(HostileUnreadMembers, Utf8StreamAgreesWithWholeTextAtEverySplit) {
  // 1- to 4-byte characters, and texts that are not UTF-8: a cut character, a stray
  // continuation, an overlong form, a surrogate, a lead byte at the very end.
  const std::string texts[] = {"plain ascii", "é ü ß", "€ 中文 ✓", "𝄞 😀 𐍈", "a\xC3",
                               "a\x80z", "\xC0\xAF", "\xED\xA0\x80", "ok \xF0\x9F\x98", "\xFF"};
  for (const std::string& text : texts) {
    const bool whole = simdjson::validate_utf8(text.data(), text.size());
    for (std::size_t chunk = 1; chunk <= text.size() + 1; ++chunk) {
      EXPECT_EQ(utf8_in_chunks(text, chunk), whole) << "text " << testing::PrintToString(text) << " chunk " << chunk;
    }
  }
}

TEST(HostileUnreadMembers, CpuBudgetIsSpentOnceAndRemembersWhere) {
  CpuBudget none(0);
  EXPECT_FALSE(none.spent("anything"));
  CpuBudget tiny(1e-12);
  volatile double sink = 0;
  for (int i = 0; i < 100000; ++i) sink = sink + i;  // burn a little CPU
  EXPECT_TRUE(tiny.spent("rule-a"));
  EXPECT_TRUE(tiny.spent("rule-b"));
  EXPECT_EQ(tiny.stopped_before(), "rule-a");
  CpuBudget roomy(3600);
  EXPECT_FALSE(roomy.spent("rule-a"));
  EXPECT_FALSE(roomy.was_spent());
}

TEST(HostileUnreadMembers, NoteTargetsFindTheFirstListedFindingAtAPlace) {
  FileResult file;
  const auto add = [&](std::string program, Location at) {
    Finding f;
    f.program = std::move(program);
    f.location = std::move(at);
    file.findings.push_back(std::move(f));
  };
  add("m", Location::of_output_spec(1));
  add("m", Location::of_output_spec(2));
  add("other", Location::of_output_spec(3));
  Location node_and_spec = Location::of_output_spec(3);
  node_and_spec.node = "add";
  add("m", node_and_spec);
  add("m", Location::of_output_spec(3));
  std::vector<char> listed(file.findings.size(), 1);
  {
    html::NoteTargets targets(file, listed);
    EXPECT_EQ(targets.target(0, Location::of_output_spec(2)), 1);
    EXPECT_EQ(targets.target(0, Location::of_output_spec(1)), -1);  // its own place
    EXPECT_EQ(targets.target(0, Location::of_output_spec(3)), 3);   // same program, first in order
    Location node;
    node.node = "add";
    EXPECT_EQ(targets.target(0, node), 3);
    EXPECT_EQ(targets.target(0, Location::of_output_spec(9)), -1);
  }
  listed[3] = 0;  // not on the page: a link to it would lead nowhere
  html::NoteTargets targets(file, listed);
  EXPECT_EQ(targets.target(0, Location::of_output_spec(3)), 4);
}

}  // namespace
}  // namespace pt2lint
