// The per-file cap of the load reporter: it counts only findings that --select/--ignore let
// through, and its summary line is grammatical for one.
#include <gtest/gtest.h>

#include <string>

#include "core/rule_filter.h"
#include "io/readers/load_reporter.h"
#include "core/rule_catalogue.h"

namespace pt2lint {
namespace {

std::size_t count(const CollectingSink& sink, std::string_view rule_id) {
  std::size_t n = 0;
  for (const auto& f : sink.findings()) n += f.rule_id == rule_id;
  return n;
}

TEST(LoadReporterCap, CountsOnlyFindingsTheFilterShows) {
  RuleFilter filter;
  filter.select(kUnsupportedSchemaVersion);
  CollectingSink collected;
  FilteringSink shown(filter, collected);
  LoadReporter reporter(shown, &filter);
  for (int i = 0; i < 700; ++i) reporter.report(kMalformedProgram, "model", "bad value");
  reporter.report(kUnsupportedSchemaVersion, "model", "schema 2");
  reporter.finish();
  ASSERT_EQ(collected.findings().size(), 1u);
  EXPECT_EQ(count(collected, "PT103"), 1u);
  EXPECT_EQ(collected.findings()[0].message, "schema 2");
}

TEST(LoadReporterCap, WithoutAFilterTheCapStillHolds) {
  CollectingSink collected;
  LoadReporter reporter(collected);
  for (int i = 0; i < 60; ++i) reporter.report(kMalformedProgram, "model", "bad value");
  reporter.report(kUnsupportedSchemaVersion, "model", "schema 2");
  reporter.finish();
  EXPECT_EQ(count(collected, "PT101"), LoadReporter::kDefaultMaxFindings + 1);  // + summary
  ASSERT_EQ(count(collected, "PT103"), 1u);
  EXPECT_EQ(collected.findings().back().message,
            "1 more unsupported-schema-version finding in this file was not shown");
  bool plural = false;
  for (const auto& f : collected.findings()) {
    plural |= f.message == "10 more malformed-program findings in this file were not shown";
  }
  EXPECT_TRUE(plural);
}

// Findings held twice over (a program beside its weights thread: held until the CRC is
// known, and inside that until the schema version is) reach the sink with their rules.
// Adopting them used to index past the middle reporter's rule list and crash.
TEST(LoadReporterHeld, AHeldReporterAdoptsAnotherAndPassesItOn) {
  CollectingSink collected;
  LoadReporter file(collected);
  LoadReporter beside_crc;
  {
    LoadReporter inside;
    inside.report(kMalformedProgram, "model", "bad value");
    inside.report(kUnsupportedSchemaVersion, "model", "schema 2");
    beside_crc.adopt(inside);
  }
  file.adopt(beside_crc);
  file.finish();
  ASSERT_EQ(collected.findings().size(), 2u);
  EXPECT_EQ(count(collected, "PT101"), 1u);
  EXPECT_EQ(count(collected, "PT103"), 1u);
}

}  // namespace
}  // namespace pt2lint
