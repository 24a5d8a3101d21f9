// The JSON reader's second thread (src/io/readers/json/json_walker_beside.cc): however the
// work is shared (the other thread always ahead, racing, or never free in time), the IR and
// the findings are those of a read on one thread, on hand-made documents, on one-byte
// mutants of them and on every program of the corpus, with the input given back behind the
// walks as a check does.
#include <gtest/gtest.h>

#include <random>
#include <string>
#include <thread>

#include <google/protobuf/arena.h>
#include <google/protobuf/util/message_differencer.h>

#include "core/diagnostic_sink.h"
#include "io/readers/json/json_to_proto.h"
#include "io/readers/load_reporter.h"
#include "io/readers/padded_bytes.h"
#include "support/hand_off.h"
#include "corpus_programs.h"
#include "test_paths.h"

namespace pt2lint {
namespace {

namespace pb = google::protobuf;

enum class Beside { kNone, kAhead, kRacing, kLate };

struct Reading {
  std::string ir;        // the program and its interned strings, serialized
  std::string findings;  // rule, JSON path and message of each, in order
  bool read = false;
  bool read_again = false;
  std::size_t nodes_beside = 0;  // what the other thread read
  bool values_beside = false;
  bool tail_beside = false;  // the graph module's signature and module call graph
};

// Reads `text` as the archive loader does: findings held until the reading is known to be
// the one kept, and read again on one thread when the reader says so.
Reading read_json(const std::string& text, Beside beside) {
  pb::Arena arena;
  ir::ExportedProgram* program = nullptr;
  pb::RepeatedPtrField<std::string> strings;
  CollectingSink sink;
  JsonReadOptions options;
  options.beside_min_bytes = 0;
  JsonToProto reader(options);
  const JsonSource source{"model", "m"};
  Reading out;
  LoadReporter reporter(sink);
  for (bool again : {false, true}) {
    if (again && !out.read_again) break;
    PaddedBytes json;
    EXPECT_TRUE(json.assign(text));
    program = pb::Arena::CreateMessage<ir::ExportedProgram>(&arena);
    strings.Clear();
    LoadReporter held;
    const InputDiscard discard{&json};
    HandOff hand_off(beside == Beside::kAhead ? HandOff::Serving::kInline : HandOff::Serving::kByServe);
    ReadBeside side{&hand_off};
    std::thread server;
    if (beside == Beside::kRacing && !again) server = std::thread([&] { hand_off.serve(); });
    out.read = reader.read(json, *program, source, held, discard, &strings,
                           beside == Beside::kNone || again ? nullptr : &side);
    hand_off.close();
    if (beside == Beside::kLate) hand_off.serve();  // finds its task cancelled
    if (server.joinable()) server.join();
    out.read_again = out.read_again || side.read_again;
    out.nodes_beside += side.nodes_read_beside;
    out.values_beside = out.values_beside || side.tensor_values_read_beside;
    out.tail_beside = out.tail_beside || side.module_tail_read_beside;
    if (!side.read_again) reporter.adopt(held);
  }
  reporter.finish();
  out.ir = program->SerializeAsString();
  for (const std::string& s : strings) out.ir += "\n" + s;
  for (const Finding& f : sink.findings()) {
    out.findings += f.rule_id + " " + f.location.json_path + " " + f.message + "\n";
  }
  return out;
}

// Whether the document was read a second time in some way of sharing the work.
bool expect_one_reading(const std::string& text, const std::string& what) {
  const Reading alone = read_json(text, Beside::kNone);
  bool read_again = false;
  for (Beside beside : {Beside::kAhead, Beside::kRacing, Beside::kLate}) {
    const Reading shared = read_json(text, beside);
    const std::string how = what + " (mode " + std::to_string(static_cast<int>(beside)) + ")";
    EXPECT_EQ(shared.read, alone.read) << how;
    EXPECT_TRUE(shared.ir == alone.ir) << how;
    EXPECT_EQ(shared.findings, alone.findings) << how;
    read_again = read_again || shared.read_again;
  }
  return read_again;
}

std::string node(int i) {
  return R"({"target": "torch.ops.aten.add.Tensor", "inputs": [{"name": "self", "arg": {"as_tensor": {"name": "x)" +
         std::to_string(i) + R"("}}, "kind": 1}], "outputs": [{"as_tensor": {"name": "y)" + std::to_string(i) +
         R"("}}], "metadata": {"stack_trace": "File \"m.py\", line 3\n  y = x + 1", "torch_fn": "add_)" +
         std::to_string(i) + R"("}, "name": "add_)" + std::to_string(i) + R"("})";
}

std::string value(int i, const std::string& dtype = "7") {
  return "\"y" + std::to_string(i) + R"(": {"dtype": )" + dtype +
         R"(, "sizes": [{"as_int": 2}], "requires_grad": false, "device": {"type": "cpu"}, "strides": [{"as_int": 1}], "storage_offset": {"as_int": 0}, "layout": 1})";
}

// A program whose graph holds `nodes` and then the graph fields `after_nodes` (the first
// normally "tensor_values"), with `before_nodes` between outputs and nodes.
std::string program(const std::string& nodes, const std::string& after_nodes,
                    const std::string& before_nodes = "") {
  return R"({"graph_module": {"graph": {"inputs": [], "outputs": [], )" + before_nodes + R"("nodes": [)" + nodes +
         "], " + after_nodes + R"(, "sym_int_values": {}, "sym_bool_values": {}, "is_single_tensor_return": false},
         "signature": {"input_specs": [], "output_specs": []}, "module_call_graph": []},
         "opset_version": {"aten": 12}, "schema_version": {"major": 8, "minor": 17}})";
}

std::string nodes(int n) {
  std::string out;
  for (int i = 0; i < n; ++i) out += (i ? ", " : "") + node(i);
  return out;
}

std::string values(int n, int bad_from = -1) {
  std::string out = R"("tensor_values": {)";
  for (int i = 0; i < n; ++i) out += (i ? ", " : "") + value(i, i >= bad_from && bad_from >= 0 ? "\"x\"" : "7");
  return out + "}";
}

// A program whose graph module holds `before_graph`, the graph (`nodes` and tensor_values)
// and then `after_graph`, and whose top level ends with `top_after`.
std::string program_with_module(const std::string& nodes, const std::string& after_graph,
                                const std::string& before_graph = "", const std::string& top_after = "") {
  return R"({"graph_module": {)" + before_graph + R"("graph": {"inputs": [], "outputs": [], "nodes": [)" + nodes +
         "], " + values(5) + R"(, "sym_int_values": {}}, )" + after_graph + R"(}, "opset_version": {"aten": 12}, )" +
         top_after + R"("schema_version": {"major": 8, "minor": 17}})";
}

TEST(ReadersJsonBeside, ModuleTailReadAsOnOneThread) {
  const std::string signature = R"("signature": {"input_specs": [{"user_input": {"arg": {"as_tensor": {"name": "x0"}}}}], "output_specs": []})";
  const std::string calls = R"("module_call_graph": [{"fqn": "", "signature": {"inputs": [], "outputs": [], "in_spec": "", "out_spec": ""}}])";
  const std::string clean = program_with_module(nodes(5), signature + ", " + calls);
  EXPECT_FALSE(expect_one_reading(clean, "signature and module call graph"));
  EXPECT_TRUE(read_json(clean, Beside::kAhead).tail_beside);
  // Another field of the same shape at the top level: the graph module's are still the ones read.
  const std::string decoy = program_with_module(nodes(5), signature + ", " + calls, "",
                                                R"("extra": {)" + signature + ", " + calls + "}, ");
  EXPECT_FALSE(expect_one_reading(decoy, "a look-alike after the graph module"));
  EXPECT_TRUE(read_json(decoy, Beside::kAhead).tail_beside);
  // Not in torch.export's order, or not both: this walk reads them.
  for (const std::string& tail : {calls + ", " + signature, signature, signature + R"(, "metadata": {}, )" + calls}) {
    const std::string text = program_with_module(nodes(5), tail);
    EXPECT_FALSE(expect_one_reading(text, tail));
    EXPECT_FALSE(read_json(text, Beside::kAhead).tail_beside) << tail;
  }
  // A signature before the graph makes the one after it a repeated key, skipped.
  EXPECT_FALSE(expect_one_reading(program_with_module(nodes(5), signature + ", " + calls, signature + ", "),
                                  "a repeated signature"));
  // Errors inside them are reported as one walk reports them.
  expect_one_reading(program_with_module(nodes(5), R"("signature": {"input_specs": 3, "output_specs": []}, )" + calls),
                     "a value error in the signature");
  expect_one_reading(program_with_module(nodes(5), R"("signature": {"input_specs": [}, )" + calls),
                     "a structural error in the signature");
  expect_one_reading(program_with_module(nodes(5), signature + R"(, "module_call_graph": [{"fqn": 7}])"),
                     "a value error in the module call graph");
}

TEST(ReadersJsonBeside, HandMadeDocumentsReadAsOnOneThread) {
  // Well-formed documents, findings or not, are read once.
  const std::string clean = program(nodes(40), values(40));
  EXPECT_FALSE(expect_one_reading(clean, "clean"));
  // The other thread always ahead reads tensor_values, the graph module's signature and
  // module call graph, and the nodes' last 15 % (kNodesShare).
  const Reading ahead = read_json(clean, Beside::kAhead);
  EXPECT_TRUE(ahead.values_beside);
  EXPECT_TRUE(ahead.tail_beside);
  EXPECT_GE(ahead.nodes_beside, 5u);
  EXPECT_LE(ahead.nodes_beside, 8u);
  EXPECT_EQ(read_json(clean, Beside::kLate).nodes_beside, 0u);
  EXPECT_FALSE(expect_one_reading("\xEF\xBB\xBF" + clean, "byte order mark"));
  EXPECT_FALSE(expect_one_reading(program(nodes(5), values(5, 2)), "value errors in tensor_values"));
  EXPECT_FALSE(expect_one_reading(program(nodes(5), values(80, 0)), "more findings than a file shows"));
  expect_one_reading(program(nodes(5), R"("tensor_values": {"y0": {"dtype": 7, "sizes": [{"as_int": 2}}})"),
                     "a structural error in tensor_values");
  // The walk of the nodes stops before tensor_values, which the other thread read and gave
  // back: read again.
  EXPECT_TRUE(expect_one_reading(program(nodes(5) + R"(, {"name": [}])", values(5)),
                                 "a structural error in the nodes"));
  expect_one_reading(program(nodes(5), values(5), values(2) + ", "), "tensor_values before and after the nodes");
  expect_one_reading(program(nodes(5), values(3) + ", " + values(2)), "tensor_values twice after the nodes");
  expect_one_reading(program(nodes(5), R"("sym_float_values": {}, )" + values(5)), "another field after the nodes");
  expect_one_reading(program(nodes(5), R"("tensor\u005fvalues": {)" + value(0) + "}"), "an escaped key");
  expect_one_reading(program(nodes(5), R"("tensor_values": [])"), "tensor_values not an object");
  expect_one_reading(program(nodes(5), R"("tensor_values": null)"), "tensor_values null");
  expect_one_reading(program("", values(3)), "no nodes");
  expect_one_reading(program(nodes(3), values(3)).substr(0, 900), "cut short");
  // A subgraph's own nodes and tensor_values are read by the walk that reads its node.
  const std::string subgraph = R"({"target": "torch.ops.higher_order.cond", "inputs": [{"name": "true_fn", "arg": {"as_graph": {"name": "g", "graph": {"inputs": [], "outputs": [], "nodes": [)" +
                               node(90) + "], " + values(2) + R"(}}}, "kind": 1}], "outputs": [], "name": "cond"})";
  expect_one_reading(program(subgraph + ", " + nodes(3), values(3)), "a subgraph");
  // Last, it is in the other thread's part: its nodes' metadata is renumbered too.
  const std::string subgraph_last = program(nodes(3) + ", " + subgraph, values(3));
  EXPECT_FALSE(expect_one_reading(subgraph_last, "a subgraph last"));
  EXPECT_GE(read_json(subgraph_last, Beside::kAhead).nodes_beside, 1u);
}

TEST(ReadersJsonBeside, MutantsReadAsOnOneThread) {
  // One byte changed, 300 times over (a fixed seed), anywhere in the document.
  const std::string base = program(nodes(4), values(4));
  std::mt19937 random(44);
  const std::string bytes = "{}[]\",: 0-19eE.\\nulrtafsx";
  for (int k = 0; k < 300; ++k) {
    std::string mutant = base;
    mutant[random() % mutant.size()] = bytes[random() % bytes.size()];
    expect_one_reading(mutant, "mutant " + std::to_string(k));
  }
}

TEST(ReadersJsonBeside, CorpusProgramsReadAsOnOneThread) {
  const std::size_t programs = testing_support::for_each_corpus_program(
      {"base", "big", "multi", "corrupt"},
      [](std::string_view dir, const std::string& label, const PaddedBytes& json) {
        const bool again = expect_one_reading(std::string(json.view()), label);
        if (dir != "corrupt") {
          EXPECT_FALSE(again) << label;
        }
      });
  if (programs == 0) GTEST_SKIP() << "no corpus at " << test_paths::kCorpus;
  EXPECT_GT(programs, 100u);
}

}  // namespace
}  // namespace pt2lint
