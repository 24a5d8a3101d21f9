// The program JSON writer reproduces PyTorch's own bytes, and what it writes reads back to
// the same IR.
#include <gtest/gtest.h>
#include <google/protobuf/util/message_differencer.h>

#include <cmath>
#include <fstream>
#include <limits>

#include "../data/lowering/lowering_test_support.h"
#include "io/writers/program_json_writer.h"
#include "io/writers/pt2_archive_writer.h"
#include "io/writers/python_json_text.h"

namespace pt2lint {
namespace {

using namespace lowering_testing;

std::string python_float(double value) {
  std::string out;
  append_python_float(out, value);
  return out;
}

TEST(WriterPythonText, FloatsAreSpelledAsPythonReprSpellsThem) {
  EXPECT_EQ(python_float(0.1), "0.1");
  EXPECT_EQ(python_float(1e-05), "1e-05");
  EXPECT_EQ(python_float(0.0001), "0.0001");
  EXPECT_EQ(python_float(1.0), "1.0");
  EXPECT_EQ(python_float(0.0), "0.0");
  EXPECT_EQ(python_float(-0.0), "-0.0");
  EXPECT_EQ(python_float(123456789.0), "123456789.0");
  EXPECT_EQ(python_float(1e16), "1e+16");
  EXPECT_EQ(python_float(1234567890123456.0), "1234567890123456.0");
  EXPECT_EQ(python_float(0.5946035575013605), "0.5946035575013605");
  EXPECT_EQ(python_float(-1.5e-07), "-1.5e-07");
  EXPECT_EQ(python_float(2.5e+300), "2.5e+300");
  EXPECT_EQ(python_float(std::numeric_limits<double>::infinity()), "\"Infinity\"");
  EXPECT_EQ(python_float(-std::numeric_limits<double>::infinity()), "\"-Infinity\"");
  EXPECT_EQ(python_float(std::nan("")), "\"NaN\"");
}

TEST(WriterPythonText, StringsAreEscapedLikeEnsureAscii) {
  std::string out;
  append_json_string(out, "a\"b\\c\nd\x01\x7f\xc3\xa9\xf0\x9f\x98\x80");
  EXPECT_EQ(out, R"("a\"b\\c\nd\u0001\u007f\u00e9\ud83d\ude00")");
}

// Every corpus program, written back, is byte for byte the JSON torch.export.save wrote,
// and reads back to an equal IR.
TEST(WriterProgramJson, CorpusProgramsRoundTripByteForByte) {
  if (!have_corpus()) GTEST_SKIP() << "corpus not found at " << corpus();
  std::vector<std::filesystem::path> files;
  for (const char* folder : {"base", "multi"})
    for (const auto& entry : std::filesystem::directory_iterator(corpus() / folder)) files.push_back(entry.path());
  files.push_back(corpus() / "big" / "kv_nested_64l.pt2");
  int checked = 0;
  for (const auto& path : files) {
    for (const ir::Program& program : load_clean(path)) {
      const std::string written = to_pytorch_json(program.program());
      std::string original;
      ASSERT_TRUE(read_archive_member(path, program.json_path(), original)) << path;
      EXPECT_TRUE(written == original) << path << ":" << program.name() << " differs from PyTorch's bytes";

      const auto reread_path = temp_path("roundtrip.json");
      { std::ofstream(reread_path) << written; }
      const std::vector<ir::Program> reread = load_clean(reread_path);
      std::filesystem::remove(reread_path);
      ASSERT_EQ(reread.size(), 1u);
      EXPECT_TRUE(google::protobuf::util::MessageDifferencer::Equals(reread[0].program(), program.program()))
          << path << ":" << program.name();
      ++checked;
    }
  }
  EXPECT_GE(checked, 17);
}

// PyTorch 2.11 writes `"forward_arg_names": null` for a method without arguments (`reset` of a
// multi-method package) and a list otherwise; a program written back keeps which (it was once
// written as `[]`, so `fix` on one method changed the untouched `reset`).
TEST(WriterProgramJson, NullForwardArgNamesStayNull) {
  const auto path = std::filesystem::path(PT2LINT_TESTS_DIR) / "data" / "device" / "zoo" / "multi_prefill_decode_reset.aten.pt2";
  int checked = 0;
  for (const ir::Program& program : load_clean(path)) {
    std::string original;
    ASSERT_TRUE(read_archive_member(path, program.json_path(), original)) << program.name();
    EXPECT_TRUE(to_pytorch_json(program.program()) == original) << program.name() << " differs from PyTorch's bytes";
    const bool without_arguments = original.find(R"("forward_arg_names": null)") != std::string::npos;
    EXPECT_EQ(without_arguments, program.name() == "reset") << program.name();
    ++checked;
  }
  EXPECT_EQ(checked, 3);
}

TEST(WriterProgramJson, PayloadConfigIsWrittenAsPyTorchWritesIt) {
  if (!have_corpus()) GTEST_SKIP() << "corpus not found at " << corpus();
  const auto path = corpus() / "base" / "counter.pt2";
  for (const ir::Program& program : load_clean(path)) {
    std::string original;
    ASSERT_TRUE(read_archive_member(path, program.weights().config_path(), original));
    EXPECT_EQ(to_pytorch_json(program.weights().config()), original);
  }
}

TEST(WriterProgramJson, UnsetOptionalsAreNullAndUnionsSingleKey) {
  ir::Node node;
  node.set_target("torch.ops.aten.add.Tensor");
  auto* input = node.add_inputs();
  input->set_name("other");
  input->mutable_arg()->set_as_float(-std::numeric_limits<double>::infinity());
  node.add_outputs()->mutable_as_tensor()->set_name("add");
  EXPECT_EQ(to_pytorch_json(node),
            R"({"target": "torch.ops.aten.add.Tensor", "inputs": [{"name": "other", "arg": {"as_float": "-Infinity"}, "kind": null}], )"
            R"("outputs": [{"as_tensor": {"name": "add"}}], "metadata": {}, "is_hop_single_tensor_return": null, "name": null})");
}

}  // namespace
}  // namespace pt2lint
