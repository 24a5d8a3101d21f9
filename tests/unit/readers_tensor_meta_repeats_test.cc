// The JSON reader's copies of repeated TensorMetas (src/io/readers/json/tensor_meta_repeats.h):
// an object's text is measured exactly, a value is copied only when the input begins with a
// whole recorded text, and a program whose values do not repeat stops looking.
#include <gtest/gtest.h>

#include <random>
#include <string>

#include <google/protobuf/arena.h>
#include <google/protobuf/util/message_differencer.h>

#include "core/diagnostic_sink.h"
#include "io/readers/json/json_bytes.h"
#include "io/readers/json/json_to_proto.h"
#include "io/readers/json/tensor_meta_repeats.h"
#include "io/readers/load_reporter.h"
#include "io/readers/padded_bytes.h"
#include "corpus_programs.h"
#include "test_paths.h"

namespace pt2lint::json_reader {
namespace {

namespace pb = google::protobuf;

std::size_t text_size(const std::string& text, std::size_t max_bytes = 4096) {
  PaddedBytes bytes;
  EXPECT_TRUE(bytes.assign(text));
  return object_text_size(bytes.data(), bytes.data() + bytes.size(), max_bytes);
}

TEST(ReadersTensorMetaRepeats, ObjectTextEndsAtTheMatchingBrace) {
  EXPECT_EQ(text_size(R"({"a": 1}, {"b": 2})"), 8u);
  EXPECT_EQ(text_size(R"({"a": [{"b": {}}, []]} tail)"), 22u);
  // Braces and quotes inside strings, escaped quotes and backslashes, do not count.
  EXPECT_EQ(text_size(R"({"a": "}\"{", "b\\": "]"}, )"), 25u);
  EXPECT_EQ(text_size(R"({"\\\"}": 1})"), 12u);
  // No end before the input's or before the bound: none.
  EXPECT_EQ(text_size(R"({"a": {"b": 1})"), 0u);
  EXPECT_EQ(text_size(R"({"a": "})"), 0u);
  EXPECT_EQ(text_size(R"({"a": 1})", 7), 0u);
  EXPECT_EQ(text_size(R"({"a": 1})", 8), 8u);
  EXPECT_EQ(text_size(R"([1])"), 0u);
  EXPECT_EQ(text_size(""), 0u);
}

// The input for find(): `text` in a padded buffer, as the walk sees it.
struct Input {
  explicit Input(const std::string& text) { EXPECT_TRUE(bytes.assign(text)); }
  const char* begin() const { return bytes.data(); }
  const char* end() const { return bytes.data() + bytes.size(); }
  PaddedBytes bytes;
};

ir::TensorMeta meta(int dtype) {
  ir::TensorMeta m;
  m.set_dtype(dtype);
  m.add_sizes()->set_as_int(2);
  return m;
}

TEST(ReadersTensorMetaRepeats, CopiesOnlyAWholeRecordedText) {
  const std::string text = R"({"dtype": 7, "sizes": [{"as_int": 2}]})";
  TensorMetaRepeats repeats;
  const Input first(text + ", \"b\": 1");
  EXPECT_EQ(repeats.find(first.begin(), first.end()), nullptr);
  repeats.record(first.begin(), first.end(), meta(7), false);

  // The same text, followed by anything: the recorded message.
  for (const std::string& after : {std::string("}"), std::string(", \"c\": 3}"), std::string()}) {
    const Input again(text + after);
    const ir::TensorMeta* found = repeats.find(again.begin(), again.end());
    ASSERT_NE(found, nullptr) << after;
    EXPECT_EQ(found->dtype(), 7);
  }
  // Any byte changed, a longer object that shares the start, or the text cut short: none.
  for (std::size_t i = 0; i < text.size(); ++i) {
    std::string changed = text;
    changed[i] = changed[i] == '7' ? '6' : '7';
    const Input other(changed);
    EXPECT_EQ(repeats.find(other.begin(), other.end()), nullptr) << changed;
  }
  const Input longer(R"({"dtype": 7, "sizes": [{"as_int": 2}], "layout": 0})");
  EXPECT_EQ(repeats.find(longer.begin(), longer.end()), nullptr);
  const Input cut(text.substr(0, text.size() - 1));
  EXPECT_EQ(repeats.find(cut.begin(), cut.end()), nullptr);
}

TEST(ReadersTensorMetaRepeats, TextsOfTheSameStartAreToldApart) {
  // Longer than the 64 bytes the look-up hashes, differing only after them.
  const std::string head = R"({"dtype": 7, "sizes": [{"as_int": 1}, {"as_int": 1}, {"as_int": 1}, )";
  const std::string a = head + R"({"as_int": 8}]})";
  const std::string b = head + R"({"as_int": 9}]})";
  TensorMetaRepeats repeats;
  const Input in_a(a);
  const Input in_b(b);
  repeats.record(in_a.begin(), in_a.end(), meta(1), false);
  repeats.record(in_b.begin(), in_b.end(), meta(2), false);
  ASSERT_NE(repeats.find(in_a.begin(), in_a.end()), nullptr);
  EXPECT_EQ(repeats.find(in_a.begin(), in_a.end())->dtype(), 1);
  ASSERT_NE(repeats.find(in_b.begin(), in_b.end()), nullptr);
  EXPECT_EQ(repeats.find(in_b.begin(), in_b.end())->dtype(), 2);
}

TEST(ReadersTensorMetaRepeats, StopsLookingWhenValuesDoNotRepeat) {
  TensorMetaRepeats repeats;
  const Input recorded(R"({"dtype": 0, "sizes": []})");
  repeats.record(recorded.begin(), recorded.end(), meta(0), false);
  for (int i = 1; i <= 300; ++i) {
    const Input other("{\"dtype\": " + std::to_string(i) + ", \"sizes\": []}");
    EXPECT_EQ(repeats.find(other.begin(), other.end()), nullptr);
  }
  // After 257 misses and no hit the look-up is off, so even the recorded text is read again.
  EXPECT_EQ(repeats.find(recorded.begin(), recorded.end()), nullptr);
}

// `json` read as `check` reads it (on an arena, metadata interned, TensorMetas shared) and
// by the generic reader alone; the tensor values must be the same, and the findings.
struct BothReadings {
  explicit BothReadings(const PaddedBytes& json) {
    shared = pb::Arena::CreateMessage<ir::ExportedProgram>(&arena);
    pb::RepeatedPtrField<std::string> strings;
    {
      LoadReporter reporter(shared_sink);
      JsonToProto().read(json, *shared, JsonSource{"model", "m"}, reporter, {}, &strings);
      reporter.finish();
    }
    JsonReadOptions reflection;  // no fast path, so nothing recorded or copied
    reflection.use_field_setters = false;
    LoadReporter reporter(copied_sink);
    JsonToProto(reflection).read(json, copied, JsonSource{"model", "m"}, reporter);
    reporter.finish();
  }
  const ir::Graph& shared_graph() const { return shared->graph_module().graph(); }
  void expect_same_values(const std::string& what) const {
    const ir::Graph& a = shared_graph();
    const ir::Graph& b = copied.graph_module().graph();
    ASSERT_EQ(a.tensor_values_size(), b.tensor_values_size()) << what;
    for (int i = 0; i < a.tensor_values_size(); ++i) {
      EXPECT_TRUE(pb::util::MessageDifferencer::Equals(a.tensor_values(i), b.tensor_values(i)))
          << what << ": " << a.tensor_values(i).key();
    }
    EXPECT_EQ(text(shared_sink), text(copied_sink)) << what;
  }
  static std::string text(const CollectingSink& sink) {
    std::string out;
    for (const Finding& f : sink.findings()) {
      out += f.rule_id + " " + f.location.json_path + " " + f.message + "\n";
    }
    return out;
  }
  pb::Arena arena;
  ir::ExportedProgram* shared = nullptr;
  ir::ExportedProgram copied;
  CollectingSink shared_sink;
  CollectingSink copied_sink;
};

const std::string kRepeats = R"({"graph_module": {"graph": {"tensor_values": {
    "a": {"dtype": 7, "sizes": [{"as_int": 2}], "device": {"type": "cpu"}},
    "b": {"dtype": 7, "sizes": [{"as_int": 2}], "device": {"type": "cpu"}},
    "c": {"dtype": 7, "sizes": [{"as_int": 3}], "device": {"type": "cpu"}},
    "d": {"dtype": 7, "sizes": [{"as_int": 2}], "extra": 1},
    "e": {"dtype": 7, "sizes": [{"as_int": 2}], "extra": 1},
    "f": {"dtype": 7, "sizes": [{"as_int": 2}], "device": {"type": "cpu"}}}}}})";

TEST(ReadersTensorMetaRepeats, AnIrThatIsOnlyReadSharesRepeatedValues) {
  PaddedBytes json;
  ASSERT_TRUE(json.assign(kRepeats));
  const BothReadings read(json);
  read.expect_same_values("inline document");
  const ir::Graph& g = read.shared_graph();
  ASSERT_EQ(g.tensor_values_size(), 6);
  const auto value = [&](int i) { return &g.tensor_values(i).value(); };
  EXPECT_EQ(value(0), value(1));  // a, b and f: one message
  EXPECT_EQ(value(0), value(5));
  EXPECT_NE(value(0), value(2));  // another size
  EXPECT_NE(value(3), value(4));  // read by the generic reader: never recorded
  EXPECT_EQ(g.tensor_values(3).value().dtype(), 7);
}

TEST(ReadersTensorMetaRepeats, SharedValuesEqualReadOnesOnMutants) {
  // One byte changed, 400 times over (a fixed seed): a value that no longer repeats a
  // recorded text exactly is read, whatever the change.
  std::mt19937 random(28);
  const std::string bytes = "{}[]\",: 0-19eE.\\nulrtafsx";
  for (int k = 0; k < 400; ++k) {
    std::string mutant = kRepeats;
    mutant[random() % mutant.size()] = bytes[random() % bytes.size()];
    PaddedBytes json;
    ASSERT_TRUE(json.assign(mutant));
    BothReadings(json).expect_same_values("mutant " + std::to_string(k));
  }
}

TEST(ReadersTensorMetaRepeats, SharedValuesEqualReadOnesOnTheCorpus) {
  const std::size_t programs = testing_support::for_each_corpus_program(
      {"base", "big", "multi", "legacy", "corrupt"},
      [](std::string_view, const std::string& label, const PaddedBytes& json) {
        BothReadings(json).expect_same_values(label);
      });
  if (programs == 0) GTEST_SKIP() << "no corpus at " << test_paths::kCorpus;
  EXPECT_GT(programs, 100u);
}

}  // namespace
}  // namespace pt2lint::json_reader
