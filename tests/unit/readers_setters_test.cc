// The JSON reader writes hot IR fields through generated setters (src/io/readers/ir_field_setters)
// and the rest through reflection. Both paths must give the same protos and the same
// findings, on every corpus program and on the hand-written bad inputs.
#include <gtest/gtest.h>

#include <filesystem>
#include <fstream>
#include <random>
#include <sstream>
#include <string>

#include <google/protobuf/util/field_comparator.h>
#include <google/protobuf/util/message_differencer.h>

#include "io/readers/json/ir_field_setters.h"
#include "io/readers/json/json_to_proto.h"
#include "io/readers/load_reporter.h"
#include "io/readers/zip/zip_archive.h"
#include "program.pb.h"
#include "core/diagnostic_sink.h"
#include "test_paths.h"

namespace pt2lint {
namespace {

namespace fs = std::filesystem;
namespace pb = google::protobuf;

using test_paths::kCorpus;

TEST(ReadersSetters, EveryEntryMatchesOneFieldOfItsType) {
  const pb::FileDescriptor* file = ir::Program::descriptor()->file();
  int with_setters = 0;
  for (int i = 0; i < file->message_type_count(); ++i) {
    const pb::Descriptor* message = file->message_type(i);
    for (int j = 0; j < message->field_count(); ++j) {
      const pb::FieldDescriptor* fd = message->field(j);
      const FieldSetters s = ir_field_setters(fd);
      if (!s.any()) continue;
      ++with_setters;
      using F = pb::FieldDescriptor;
      const int slots = (s.message != nullptr) + (s.string != nullptr) + (s.int64 != nullptr) +
                        (s.int32 != nullptr) + (s.boolean != nullptr) + (s.real != nullptr);
      EXPECT_EQ(slots, 1) << fd->full_name();
      switch (fd->cpp_type()) {
        case F::CPPTYPE_MESSAGE: EXPECT_NE(s.message, nullptr) << fd->full_name(); break;
        case F::CPPTYPE_STRING: EXPECT_NE(s.string, nullptr) << fd->full_name(); break;
        case F::CPPTYPE_INT64: EXPECT_NE(s.int64, nullptr) << fd->full_name(); break;
        case F::CPPTYPE_INT32: EXPECT_NE(s.int32, nullptr) << fd->full_name(); break;
        case F::CPPTYPE_BOOL: EXPECT_NE(s.boolean, nullptr) << fd->full_name(); break;
        case F::CPPTYPE_DOUBLE: EXPECT_NE(s.real, nullptr) << fd->full_name(); break;
        default: ADD_FAILURE() << "setter for unexpected type: " << fd->full_name();
      }
    }
  }
  // Every table line found its field: none names a field that does not exist.
  EXPECT_EQ(with_setters, ir_field_setter_count());
  // The hot ones are covered.
  EXPECT_TRUE(ir_field_setters(ir::Node::descriptor()->FindFieldByName("inputs")).any());
  EXPECT_TRUE(ir_field_setters(ir::Argument::descriptor()->FindFieldByName("as_tensor")).any());
  EXPECT_TRUE(ir_field_setters(ir::TensorMeta::descriptor()->FindFieldByName("sizes")).any());
}

std::string findings_text(const CollectingSink& sink) {
  std::string out;
  for (const Finding& f : sink.findings()) {
    out += f.rule_id + " | " + f.program + " | " + f.location.archive_member + " | " +
           f.location.json_path + " | " + f.message + "\n";
  }
  return out;
}

// Reads `json` with both paths into fresh messages of `prototype`'s type and compares them.
void expect_same(const PaddedBytes& json, const pb::Message& prototype, const std::string& what) {
  JsonReadOptions fast_options;
  JsonReadOptions reflection_options;
  reflection_options.use_field_setters = false;
  JsonToProto fast(fast_options);
  JsonToProto reflection(reflection_options);
  std::unique_ptr<pb::Message> a(prototype.New());
  std::unique_ptr<pb::Message> b(prototype.New());
  CollectingSink sink_a;
  CollectingSink sink_b;
  bool ok_a = false;
  bool ok_b = false;
  {
    LoadReporter reporter(sink_a);
    ok_a = fast.read(json, *a, JsonSource{"model", what}, reporter);
    reporter.finish();
  }
  {
    LoadReporter reporter(sink_b);
    ok_b = reflection.read(json, *b, JsonSource{"model", what}, reporter);
    reporter.finish();
  }
  EXPECT_EQ(ok_a, ok_b) << what;
  std::string differences;
  pb::util::MessageDifferencer differ;
  pb::util::DefaultFieldComparator comparator;
  comparator.set_treat_nan_as_equal(true);  // old_encodings.json holds NaN
  differ.set_field_comparator(&comparator);
  differ.ReportDifferencesToString(&differences);
  EXPECT_TRUE(differ.Compare(*a, *b)) << what << "\n" << differences;
  EXPECT_EQ(findings_text(sink_a), findings_text(sink_b)) << what;
}

TEST(ReadersSetters, SameProtosAndFindingsAsReflectionOnTheCorpus) {
  if (!fs::exists(kCorpus / "base")) GTEST_SKIP() << "no corpus at " << kCorpus;
  std::size_t documents = 0;
  for (const char* dir : {"base", "legacy", "multi", "big", "corrupt"}) {
    for (const auto& entry : fs::directory_iterator(kCorpus / dir)) {
      if (entry.path().extension() != ".pt2") continue;
      auto opened = ZipArchive::open_file(entry.path(), 1'000'000);
      if (!opened.ok()) continue;  // corruptions of the zip itself: nothing for the JSON reader
      const ZipArchive* zip = opened.value().get();
      for (const auto& m : zip->members()) {
        const bool config = m.name.ends_with("_config.json");
        const bool program = !config && (m.name.ends_with(".json"));
        if (!m.unsafe.empty() || (!config && !program)) continue;
        PaddedBytes json;
        if (!zip->read(m, std::uint64_t{1} << 30, json).ok()) continue;
        const std::string what = entry.path().filename().string() + ":" + m.name;
        if (config) {
          expect_same(json, ir::PayloadConfig(), what);
        } else {
          expect_same(json, ir::ExportedProgram(), what);
        }
        ++documents;
      }
    }
  }
  EXPECT_GT(documents, 100u);
}

TEST(ReadersSetters, SameProtosAndFindingsAsReflectionOnBadInputs) {
  const std::string dir = std::string(PT2LINT_TESTS_DIR) + "/data/json/";
  std::vector<std::string> documents;
  for (const auto& entry : fs::directory_iterator(dir)) {
    if (entry.path().extension() != ".json") continue;
    std::ifstream in(entry.path(), std::ios::binary);
    std::stringstream text;
    text << in.rdbuf();
    documents.push_back(text.str());
  }
  // Wrong types, nulls, unknown union tags, bad numbers and escapes in the hot messages.
  documents.push_back(R"({"graph_module": {"graph": {"inputs": [], "outputs": [], "nodes": [
      {"target": 3, "inputs": [{"name": "x", "arg": {"as_tensor": {"name": null}}},
                               {"name": "y", "arg": {"as_tensors": [{"name": "a"}, 7]}},
                               {"name": "z", "arg": {"as_int": 1e999}, "kind": "one"},
                               {"name": "w", "arg": {"as_ints": [1, 2, 36893488147419103232]}},
                               {"name": "v", "arg": {"as_bogus": 1}},
                               {"name": "u", "arg": {"as_float": Infinity}},
                               {"name": "t", "arg": {"as_string": "a\"b\\n"}},
                               {"name": "s", "arg": {"as_none": []}},
                               {"arg": {"as_bool": "yes"}}],
       "outputs": [{"as_tensor": {"name": "o"}}, {"as_int": 1, "as_float": 2.0}],
       "metadata": {"stack_trace": "line\n2", "k": 5}, "is_hop_single_tensor_return": null}],
      "tensor_values": {"o": {"dtype": 7, "sizes": [{"as_int": 2}, {"as_expr": {"expr_str": "s0",
        "hint": {"as_int": 2}}}, {"as_int": "x"}], "requires_grad": 1, "device": {"type": "cpu",
        "index": null}, "strides": [{"as_int": 1}], "storage_offset": {"as_int": 0}, "layout": 7},
        "p": {"sizes": 4}, "q": null}},
    "signature": {"input_specs": [{"parameter": {"arg": {"name": "p"}, "parameter_name": 1}}],
                  "output_specs": [{"buffer_mutation": {"arg": {"name": "o"}}}, {}]}},
   "schema_version": {"major": 8, "minor": 1}})");
  documents.push_back(R"({"config": {"w": {"path_name": "weight_0", "is_param": true,
      "use_pickle": false, "tensor_meta": {"dtype": 7, "sizes": [{"as_int": 3}]}},
      "x": {"path_name": 5}, "y": 3}})");
  // The TensorMeta fast path gives up on anything but the well-formed case and must leave
  // the generic reader the same document: duplicate, escaped and unknown keys, out-of-range
  // and mistyped values, unions of two kinds, and each ',' or ':' dropped in turn (errors of
  // structure, which the fast path reports itself, at the generic reader's position and path).
  const std::string tensor_metas = R"({"graph_module": {"graph": {"tensor_values": {
      "a": {"dtype": 7, "sizes": [{"as_int": 2}, {"as_int": 3}], "requires_grad": false,
            "device": {"type": "cpu", "index": null}, "strides": [{"as_int": 3}, {"as_int": 1}],
            "storage_offset": {"as_int": 0}, "layout": 7},
      "b": {"dtype": 7, "dtype": 6, "sizes": []},
      "c": {"d\u0074ype": 7, "sizes": [], "extra": 1},
      "d": {"dtype": 4294967296, "sizes": [{"as_int": 1, "as_expr": {"expr_str": "s"}}]},
      "e": {"dtype": 7, "sizes": [{}], "device": {"type": "cu\u0064a", "index": 0}},
      "f": {"dtype": 7, "sizes": [{"as_int": 1}], "device": {"index": "0"}, "layout": null},
      "g": {"dtype": 7, "sizes": [{"as_int": 1}], "storage_offset": [], "requires_grad": 1},
      "h": {}, "i": {"sizes": [{"as_int": 1}]}, "j": {"dtype": 7, "sizes": null}}}}})";
  documents.push_back(tensor_metas);
  for (std::size_t i = 0; i < tensor_metas.size(); ++i) {
    if (tensor_metas[i] != ',' && tensor_metas[i] != ':') continue;
    std::string broken = tensor_metas;
    broken[i] = ' ';
    documents.push_back(std::move(broken));
  }
  // Repeated TensorMeta texts are copied from the first reading (tensor_meta_repeats.h): the
  // same text after other keys, at another depth (the weights config), a text that shares a
  // recorded one's start, and one given up on the first time (an unknown key) and then again.
  const std::string repeats = R"({"graph_module": {"graph": {"tensor_values": {
      "a": {"dtype": 7, "sizes": [{"as_int": 2}], "device": {"type": "cpu"}},
      "b": {"dtype": 7, "sizes": [{"as_int": 2}], "device": {"type": "cpu"}},
      "c": {"dtype": 7, "sizes": [{"as_int": 2}], "device": {"type": "cpu"}, "layout": 1},
      "d": {"dtype": 7, "sizes": [{"as_int": 2}], "extra": 1},
      "e": {"dtype": 7, "sizes": [{"as_int": 2}], "extra": 1},
      "f": {"dtype": 7, "sizes": [{"as_int": 2}], "device": {"type": "cpu"}}}}},
    "config": {"w": {"path_name": "weight_0", "tensor_meta":
      {"dtype": 7, "sizes": [{"as_int": 2}], "device": {"type": "cpu"}}}}})";
  documents.push_back(repeats);
  // The node-argument fast path, on the same terms: every kind it reads, and each way a
  // NamedArgument or Argument leaves the well-formed case.
  const std::string arguments = R"({"graph_module": {"graph": {"nodes": [
      {"target": "t", "inputs": [
         {"name": "a", "arg": {"as_tensor": {"name": "x"}}, "kind": 1},
         {"name": "b", "arg": {"as_tensors": [{"name": "x"}, {"name": "y"}]}},
         {"name": "c", "arg": {"as_int": -3}, "kind": 2},
         {"name": "d", "arg": {"as_ints": [1, -2, 9223372036854775807]}},
         {"name": "e", "arg": {"as_none": true}}, {"name": "f", "arg": {"as_float": 0.5}},
         {"name": "g", "arg": {"as_bool": false}}, {"name": "h", "arg": {"as_scalar_type": 6}},
         {"name": "i", "arg": {"as_string": "s"}}, {"name": "j", "arg": {"as_layout": 0}},
         {"name": "k", "arg": {"as_memory_format": 1}},
         {"name": "l", "name": "m", "arg": {"as_int": 1}},
         {"name": "n\u0041", "arg": {"as_tensor": {"name": "x\ty"}}},
         {"name": "o", "arg": {"as_int": 1, "as_float": 1.0}},
         {"name": "p", "arg": {"as_int": 1}, "kind": 4294967296},
         {"name": "q", "arg": {"as_ints": [1, 2.5]}},
         {"name": "r", "arg": {"as_tensor": {"name": "x", "extra": 1}}},
         {"name": "s", "arg": {"as_tensors": [{"name": "x"}, {}]}},
         {"name": "t", "arg": {"as_float": "NaN"}}, {"name": "u", "arg": {}},
         {"name": "v", "arg": {"as_sym_int": {"as_name": "s0"}}}, {"arg": {"as_int": 1}},
         {"name": "w"}, {"name": "x", "arg": {"as_int": 1}, "extra": true},
         {"name": "y", "arg": {"as_none": null}, "kind": null}, {"name": 5, "arg": []},
         {"name": "z", "arg": {"as_scalar_type": 2147483648}}],
       "outputs": [{"as_tensor": {"name": "o"}}, {"as_tensors": []}, {"as_none": []},
                   {"as_bogus": 1}, 7, {"as_int": "1"}], "name": "n"}]}}})";
  documents.push_back(arguments);
  for (std::size_t i = 0; i < arguments.size(); ++i) {
    if (arguments[i] != ',' && arguments[i] != ':') continue;
    std::string broken = arguments;
    broken[i] = ' ';
    documents.push_back(std::move(broken));
  }
  // And each of them with one byte changed, 400 times over (a fixed seed): the fast paths
  // must leave every mutant to the generic reader exactly as it would read it.
  std::mt19937 random(28);
  for (const std::string* base : {&arguments, &tensor_metas, &repeats}) {
    const std::string bytes = "{}[]\",: 0-19eE.\\nulrtafsx";
    for (int k = 0; k < 400; ++k) {
      std::string mutant = *base;
      mutant[random() % mutant.size()] = bytes[random() % bytes.size()];
      documents.push_back(std::move(mutant));
    }
  }
  for (std::size_t i = 0; i < documents.size(); ++i) {
    PaddedBytes json;
    ASSERT_TRUE(json.assign(documents[i]));
    expect_same(json, ir::ExportedProgram(), "document " + std::to_string(i));
    expect_same(json, ir::PayloadConfig(), "document " + std::to_string(i) + " as config");
  }
}

}  // namespace
}  // namespace pt2lint
