// The labelled corpus: every layout loads clean, and the parse-level corruptions give the
// finding their labels expect.
#include <gtest/gtest.h>

#include <chrono>
#include <filesystem>
#include <string>

#include "readers_test_support.h"
#include "test_paths.h"

namespace pt2lint {
namespace {

namespace fs = std::filesystem;
using testing_support::Loaded;
using testing_support::load_path;

using test_paths::kCorpus;

#define REQUIRE_CORPUS()                                                      \
  if (!fs::exists(kCorpus / "base")) GTEST_SKIP() << "no corpus at " << kCorpus

TEST(ReadersCorpus, CleanLayoutsLoadWithoutFindings) {
  REQUIRE_CORPUS();
  std::size_t files = 0;
  for (const char* dir : {"base", "legacy", "multi", "big"}) {
    for (const auto& entry : fs::directory_iterator(kCorpus / dir)) {
      if (entry.path().extension() != ".pt2") continue;
      ++files;
      const Loaded r = load_path(entry.path().string());
      EXPECT_EQ(r.outcome, LoadOutcome::kLoaded) << entry.path();
      EXPECT_TRUE(r.findings.empty()) << entry.path() << "\n" << r.dump();
      ASSERT_FALSE(r.file.programs.empty()) << entry.path();
      for (const auto& p : r.file.programs) {
        EXPECT_GT(p.program().graph_module().graph().nodes_size(), 0) << entry.path();
        EXPECT_EQ(p.program().schema_version().major(), 8);
        const bool legacy = std::string(dir) == "legacy";
        EXPECT_EQ(p.layout(), legacy ? ir::LAYOUT_LEGACY_ZIP : ir::LAYOUT_PT2_ARCHIVE);
        EXPECT_EQ(p.weights().present(), !legacy);
      }
    }
  }
  EXPECT_GT(files, 20u);
}

TEST(ReadersCorpus, MultiHoldsPrefillAndDecode) {
  REQUIRE_CORPUS();
  const Loaded r = load_path((kCorpus / "multi/kv_prefill_decode.pt2").string());
  ASSERT_EQ(r.file.programs.size(), 2u) << r.dump();
  EXPECT_EQ(r.file.programs[0].name(), "prefill");
  EXPECT_EQ(r.file.programs[1].name(), "decode");
  for (const auto& p : r.file.programs) {
    EXPECT_EQ(p.weights().config_path(),
              "kv_prefill_decode/data/weights/" + p.name() + "_weights_config.json");
    EXPECT_EQ(p.weights().records_size(), 60);  // both programs' records: storage is shared
    EXPECT_GT(p.weights().config().config_size(), 0);
  }
}

TEST(ReadersCorpus, ParseLevelCorruptions) {
  REQUIRE_CORPUS();
  for (const char* base : {"counter", "conv_bn_train"}) {
    const std::string stem = (kCorpus / "corrupt" / base).string();
    const Loaded truncated = load_path(stem + "__truncated.pt2");
    EXPECT_EQ(truncated.findings.size(), 1u) << truncated.dump();
    EXPECT_EQ(truncated.count("malformed-program"), 1u);
    EXPECT_NE(truncated.findings[0].message.find("truncated"), std::string::npos);
    EXPECT_NE(truncated.findings[0].location.archive_member.find("models/model.json"),
              std::string::npos);

    const Loaded wrong = load_path(stem + "__wrong_type.pt2");
    ASSERT_EQ(wrong.findings.size(), 1u) << wrong.dump();
    EXPECT_EQ(wrong.count("malformed-program"), 1u);
    EXPECT_NE(wrong.findings[0].message.find("got number 12345"), std::string::npos);
    EXPECT_EQ(wrong.findings[0].location.json_path.rfind("graph_module.signature.output_specs[", 0),
              0u)
        << wrong.dump();

    const Loaded unknown = load_path(stem + "__unknown_kind.pt2");
    ASSERT_EQ(unknown.findings.size(), 1u) << unknown.dump();
    EXPECT_NE(unknown.findings[0].message.find("unknown output spec kind 'frobnicated_output'"),
              std::string::npos);

    const Loaded schema = load_path(stem + "__schema_major.pt2");
    ASSERT_EQ(schema.findings.size(), 1u) << schema.dump();
    EXPECT_EQ(schema.count("unsupported-schema-version"), 1u);
    EXPECT_NE(schema.findings[0].message.find("schema_version 999.17 is not supported"),
              std::string::npos);
    ASSERT_EQ(schema.file.programs.size(), 1u);  // returned, marked: no rule runs on it
    EXPECT_TRUE(schema.file.programs[0].not_checked());

    // A removed weight record is the state-dict rule's to report; the loader shows it gone.
    const Loaded missing = load_path(stem + "__missing_weight.pt2");
    EXPECT_TRUE(missing.findings.empty()) << missing.dump();
    ASSERT_EQ(missing.file.programs.size(), 1u);
    for (const auto& record : missing.file.programs[0].weights().records()) {
      EXPECT_NE(record.path(), "weight_0");
    }
    bool config_names_it = false;
    for (const auto& e : missing.file.programs[0].weights().config().config()) {
      config_names_it |= e.value().path_name() == "weight_0";
    }
    EXPECT_TRUE(config_names_it);
  }
}

// Not a benchmark, a tripwire: the whole check has 50 ms, loading must stay a part of it.
TEST(ReadersCorpus, BigProgramLoadsQuickly) {
  REQUIRE_CORPUS();
  const std::string path = (kCorpus / "big/kv_nested_256l.pt2").string();
  double best_ms = 1e9;
  for (int i = 0; i < 5; ++i) {
    const auto start = std::chrono::steady_clock::now();
    const Loaded r = load_path(path);
    const auto ms = std::chrono::duration<double, std::milli>(
                        std::chrono::steady_clock::now() - start)
                        .count();
    best_ms = std::min(best_ms, ms);
    ASSERT_EQ(r.file.programs.size(), 1u);
    EXPECT_EQ(r.file.programs[0].program().graph_module().graph().nodes_size(), 5634);
  }
  std::printf("kv_nested_256l.pt2 loads in %.1f ms (best of 5)\n", best_ms);
#ifdef NDEBUG
  EXPECT_LT(best_ms, 1000.0);  // catches pathologies only: shared machines are noisy
#endif
}

}  // namespace
}  // namespace pt2lint
