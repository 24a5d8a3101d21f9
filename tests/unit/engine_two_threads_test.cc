// A program's rules on two threads (engine/task_batch.h): every file of the corpus and every
// golden program gets the same report, byte for byte, with each phase's rules run on two
// threads as one by one, and TaskBatch keeps each task's findings in task order whatever
// the threads' timing.
#include <gtest/gtest.h>

#include <climits>
#include <optional>
#include <filesystem>
#include <sstream>
#include <stdexcept>
#include <string>
#include <vector>

#include "core/rule_registry.h"
#include "engine/engine.h"
#include "engine/run_report.h"
#include "engine/task_batch.h"
#include "reports/formats.h"
#include "support/hand_off.h"
#include "all_rules.h"
#include "test_paths.h"

namespace pt2lint {
namespace {

namespace fs = std::filesystem;

std::string json_report_of(const fs::path& path, int two_threads_from) {
  Engine engine(testing_support::all_rules(), RuleFilter{});
  engine.set_rules_on_two_threads_from(two_threads_from);
  RunReport report;
  report.files.push_back(engine.check_file(path, LoadOptions{}));
  RenderOptions render;
  render.registry = &testing_support::all_rules();
  std::ostringstream out;
  make_renderer("json")->render(report, render, out);
  return out.str();
}

TEST(EngineTwoThreads, EveryProgramGetsTheSameReport) {
  std::vector<fs::path> files;
  for (const fs::path& dir : {test_paths::kCorpus / "base", test_paths::kCorpus / "corrupt",
                              test_paths::kCorpus / "multi", fs::path(PT2LINT_TESTS_DIR) / "golden"}) {
    if (!fs::exists(dir)) continue;
    for (const auto& entry : fs::recursive_directory_iterator(dir)) {
      if (entry.path().extension() == ".pt2") files.push_back(entry.path());
    }
  }
  ASSERT_GT(files.size(), 100u);
  std::size_t with_findings = 0;
  for (const fs::path& file : files) {
    const std::string alone = json_report_of(file, INT_MAX);
    EXPECT_EQ(json_report_of(file, 0), alone) << file;
    with_findings += alone.find("\"rule\": \"PT") != std::string::npos;
  }
  EXPECT_GT(with_findings, 50u);  // the comparison covers findings, not only clean reports
}

// Twelve tasks of one to four findings each, to two sinks; as text, per sink, in arrival order.
std::vector<std::string> findings_of_tasks(bool two_threads) {
  CollectingSink first, second;
  TaskBatch batch;
  for (int t = 0; t < 12; ++t) {
    batch.add(
        [t](DiagnosticSink& to) {
          for (int k = 0; k < 1 + t % 4; ++k) {
            Finding f;
            f.message = std::to_string(t) + "." + std::to_string(k);
            to.report(std::move(f));
          }
        },
        t % 3 == 0 ? second : first);
  }
  std::optional<ServingThread> other;
  if (two_threads) other.emplace();
  batch.run_and_clear(other ? &other->hand_off() : nullptr);
  EXPECT_TRUE(batch.empty());
  std::vector<std::string> out(2);
  for (const Finding& f : first.findings()) out[0] += f.message + " ";
  for (const Finding& f : second.findings()) out[1] += f.message + " ";
  return out;
}

TEST(EngineTwoThreads, EachTasksFindingsReachItsSinkInTaskOrder) {
  const std::vector<std::string> one_by_one = findings_of_tasks(false);
  EXPECT_EQ(one_by_one[1], "0.0 3.0 3.1 3.2 3.3 6.0 6.1 6.2 9.0 9.1 ");
  for (int round = 0; round < 50; ++round) EXPECT_EQ(findings_of_tasks(true), one_by_one);
}

TEST(EngineTwoThreads, WhatATaskThrowsReachesTheCaller) {
  CollectingSink sink;
  TaskBatch batch;
  batch.add([](DiagnosticSink& to) { to.report(Finding{}); }, sink);
  batch.add([](DiagnosticSink&) { throw std::runtime_error("a task failed"); }, sink);
  batch.add([](DiagnosticSink& to) { to.report(Finding{}); }, sink);
  ServingThread other;
  EXPECT_THROW(batch.run_and_clear(&other.hand_off()), std::runtime_error);
}

}  // namespace
}  // namespace pt2lint
