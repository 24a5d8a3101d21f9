// The JSON reader: old encodings PyTorch still accepts, and hostile documents that must
// each become a finding without costing unbounded time or memory.
#include <gtest/gtest.h>

#include <cmath>
#include <string>

#include "core/ir/node_metadata.h"
#include "readers_test_support.h"

namespace pt2lint {
namespace {

using testing_support::Loaded;
using testing_support::load_memory;
using testing_support::load_path;

const std::string kDataDir = std::string(PT2LINT_TESTS_DIR) + "/data/json/";

// A minimal valid program with `graph_extra` spliced into the graph object.
std::string program_json(const std::string& graph_extra = "", int major = 8) {
  return R"({"graph_module": {"graph": {"inputs": [], "outputs": [], "nodes": [])" +
         graph_extra +
         R"(}, "signature": {"input_specs": [], "output_specs": []}},
  "schema_version": {"major": )" +
         std::to_string(major) + R"(, "minor": 17}})";
}

TEST(ReadersJson, OldEncodingsLoadWithoutFindings) {
  const Loaded r = load_path(kDataDir + "old_encodings.json");
  ASSERT_EQ(r.outcome, LoadOutcome::kLoaded);
  EXPECT_TRUE(r.findings.empty()) << r.dump();
  ASSERT_EQ(r.file.programs.size(), 1u);
  const auto& p = r.file.programs[0];
  EXPECT_EQ(p.name(), "model");
  EXPECT_EQ(p.layout(), ir::LAYOUT_BARE_JSON);
  const auto& node = p.program().graph_module().graph().nodes(0);
  ASSERT_EQ(node.inputs_size(), 7);
  EXPECT_EQ(node.inputs(1).arg().as_float(), -INFINITY);
  EXPECT_EQ(node.inputs(2).arg().as_float(), INFINITY);
  EXPECT_EQ(node.inputs(3).arg().kind_case(), ir::Argument::kAsNone);
  EXPECT_TRUE(std::isnan(node.inputs(4).arg().as_float()));
  const auto& floats = node.inputs(5).arg().as_floats();
  ASSERT_EQ(floats.items_size(), 4);
  EXPECT_EQ(floats.items(0), 1.5);
  EXPECT_EQ(floats.items(1), INFINITY);
  EXPECT_EQ(floats.items(2), -INFINITY);
  EXPECT_TRUE(std::isnan(floats.items(3)));
  const auto& optionals = node.inputs(6).arg().as_optional_tensors();
  ASSERT_EQ(optionals.items_size(), 2);
  EXPECT_EQ(optionals.items(0).kind_case(), ir::OptionalTensorArgument::kAsNone);
  EXPECT_EQ(optionals.items(1).as_tensor().name(), "x");
  ASSERT_EQ(node.metadata_size(), 1);
  EXPECT_EQ(node.metadata(0).key(), "stack_trace");
  EXPECT_FALSE(node.has_name());  // optional key left out by old writers
  const auto& graph = p.program().graph_module().graph();
  ASSERT_EQ(graph.tensor_values_size(), 2);
  EXPECT_EQ(graph.tensor_values(0).key(), "x");
  EXPECT_EQ(graph.tensor_values(0).value().sizes(1).as_expr().expr_str(), "s0");
  EXPECT_FALSE(graph.tensor_values(0).value().device().has_index());
  EXPECT_EQ(p.program().opset_version(0).value(), 10);
  EXPECT_TRUE(p.program().range_constraints(0).value().has_min_val());
  EXPECT_FALSE(p.program().range_constraints(0).value().has_max_val());
}

TEST(ReadersJson, Schema5IsOneFindingAndNotRead) {
  const Loaded r = load_path(kDataDir + "schema5_dialect.json");
  ASSERT_EQ(r.file.programs.size(), 1u);
  EXPECT_TRUE(r.file.programs[0].not_checked());
  EXPECT_FALSE(r.file.programs[0].program().has_graph_module());  // only the version was read
  EXPECT_EQ(r.file.programs[0].program().schema_version().major(), 5);
  ASSERT_EQ(r.findings.size(), 1u) << r.dump();
  const std::string& message = r.first("unsupported-schema-version")->message;
  EXPECT_NE(message.find("schema_version 5.1 is not supported"), std::string::npos) << message;
  EXPECT_NE(message.find("PyTorch 2.3 to 2.5"), std::string::npos) << message;
  EXPECT_NE(message.find("this build reads schema major 8"), std::string::npos) << message;
}

// The 2023-24 form: an integer schema_version, a top-level dialect, and unions with every
// member present. One finding, whatever else the document holds.
TEST(ReadersJson, IntegerSchemaVersionIsOneFinding) {
  const Loaded r = load_memory(
      R"({"graph_module": {"graph": {"inputs": [{"as_none": null, "as_tensor": {"name": "x"}}]},
          "signature": {"inputs_to_parameters": {}}}, "opset_version": {"aten": 10},
          "range_constraints": {}, "equality_constraints": [], "schema_version": 2,
          "dialect": "ATEN"})",
      "legacy.json");
  ASSERT_EQ(r.findings.size(), 1u) << r.dump();
  const std::string& message = r.first("unsupported-schema-version")->message;
  EXPECT_NE(message.find("schema_version 2 (an integer)"), std::string::npos) << message;
  EXPECT_NE(message.find("PyTorch 2.1 to 2.3"), std::string::npos) << message;
}

// Text that only looks like the key (inside a string, or a nested map) is not the version.
TEST(ReadersJson, SchemaVersionLookalikeIsNotTheVersion) {
  const Loaded r = load_memory(
      R"({"graph_module": {"graph": {"inputs": [], "outputs": [], "nodes": []},
          "signature": {"input_specs": [], "output_specs": []}, "module_call_graph": [],
          "metadata": {"schema_version": "{\"schema_version\": 3}"}},
          "opset_version": {}, "range_constraints": {},
          "schema_version": {"major": 8, "minor": 17}, "verifiers": ["ATEN"],
          "torch_version": "2.11.0", "note": {"schema_version": {"major": 3}}})",
      "lookalike.json");
  EXPECT_EQ(r.count("unsupported-schema-version"), 0u) << r.dump();
  ASSERT_EQ(r.file.programs.size(), 1u);
  EXPECT_FALSE(r.file.programs[0].not_checked());
}

TEST(ReadersJson, FolderWalkSkipsJsonThatIsNoProgram) {
  LoadOptions walk;
  walk.found_by_folder_walk = true;
  EXPECT_EQ(load_path(kDataDir + "not_a_program.json", walk).outcome, LoadOutcome::kSkipped);
  EXPECT_EQ(load_memory("[1, 2]", "list.json", walk).outcome, LoadOutcome::kSkipped);
  const Loaded direct = load_path(kDataDir + "not_a_program.json");
  EXPECT_EQ(direct.outcome, LoadOutcome::kLoaded);
  EXPECT_GE(direct.count("malformed-program"), 1u);  // missing graph_module, schema_version
}

TEST(ReadersJson, WrongTypeNamesPathAndExpectation) {
  const Loaded r = load_memory(program_json(R"(, "tensor_values": {"x": {"dtype": 7,
      "sizes": [{"as_int": "four"}]}})"),
                               "p.json");
  ASSERT_EQ(r.count("malformed-program"), 1u) << r.dump();
  const Finding& f = *r.first("malformed-program");
  EXPECT_EQ(f.location.json_path, R"(graph_module.graph.tensor_values["x"].sizes[0].as_int)");
  EXPECT_NE(f.message.find("expected an integer, got string \"four\""), std::string::npos)
      << f.message;
  ASSERT_EQ(r.file.programs.size(), 1u);  // the rest of the file is still read
}

TEST(ReadersJson, HugeNumbersWhereIntsBelongAreOneFindingEach) {
  const Loaded r = load_memory(program_json(R"(, "tensor_values": {"x": {"dtype": 7,
      "sizes": [{"as_int": 1e999}, {"as_int": 1180591620717411303424}, {"as_int": 3}]}})"),
                               "p.json");
  ASSERT_EQ(r.count("malformed-program"), 2u) << r.dump();
  EXPECT_NE(r.findings[0].message.find("expected an integer, got number 1e999"),
            std::string::npos)
      << r.dump();
  EXPECT_NE(r.findings[1].message.find("does not fit in 64 bits"), std::string::npos)
      << r.dump();
  const auto& sizes = r.file.programs[0].program().graph_module().graph().tensor_values(0)
                          .value().sizes();
  ASSERT_EQ(sizes.size(), 3);
  EXPECT_EQ(sizes[2].as_int(), 3);
}

TEST(ReadersJson, UnknownUnionKindListsValidKinds) {
  std::string json = program_json();
  json.replace(json.find(R"("output_specs": [])"), 18,
               R"("output_specs": [{"frobnicated_output": {"arg": {"as_tensor": {"name": "y"}}}}])");
  const Loaded r = load_memory(json, "p.json");
  ASSERT_EQ(r.count("malformed-program"), 1u) << r.dump();
  const Finding& f = *r.first("malformed-program");
  EXPECT_EQ(f.location.json_path, "graph_module.signature.output_specs[0]");
  EXPECT_NE(f.message.find("unknown output spec kind 'frobnicated_output'; expected one of "
                           "user_output, loss_output, buffer_mutation"),
            std::string::npos)
      << f.message;
  // The bad spec keeps its slot so spec indices still line up with graph outputs.
  EXPECT_EQ(r.file.programs[0].program().graph_module().signature().output_specs_size(), 1);
}

TEST(ReadersJson, MissingRequiredFieldIsReported) {
  const Loaded r = load_memory(R"({"graph_module": {"graph": {"inputs": [], "outputs": []},
      "signature": {"input_specs": [], "output_specs": []}}, "schema_version": {"major": 8}})",
                               "p.json");
  ASSERT_EQ(r.count("malformed-program"), 1u) << r.dump();
  EXPECT_NE(r.first("malformed-program")->message.find("missing required field 'nodes'"),
            std::string::npos);
  EXPECT_EQ(r.first("malformed-program")->location.json_path, "graph_module.graph");
}

TEST(ReadersJson, TruncatedDocumentIsOneFinding) {
  const std::string json = program_json();
  for (std::size_t cut : {json.size() / 2, json.size() - 1, std::size_t{1}, std::size_t{20}}) {
    const Loaded r = load_memory(json.substr(0, cut), "p.json");
    EXPECT_EQ(r.findings.size(), 1u) << cut << "\n" << r.dump();
    EXPECT_EQ(r.count("malformed-program"), 1u);
  }
}

TEST(ReadersJson, TrailingContentIsReported) {
  const Loaded r = load_memory(program_json() + " {}", "p.json");
  ASSERT_EQ(r.count("malformed-program"), 1u) << r.dump();
  EXPECT_NE(r.findings[0].message.find("after the end"), std::string::npos);
}

TEST(ReadersJson, NestedHundredThousandDeepIsBounded) {
  std::string arrays = R"({"graph_module": {"graph": {"inputs": )";
  arrays += std::string(100000, '[') + std::string(100000, ']') + "}}}";
  const Loaded a = load_memory(arrays, "p.json");
  EXPECT_GE(a.count("malformed-program"), 1u);

  // Nesting through the schema's own recursion (a graph argument holding a graph) reaches
  // the depth limit instead of the stack's.
  std::string open, close;
  for (int i = 0; i < 100000; ++i) {
    open += R"({"target": "t", "outputs": [], "inputs": [{"name": "g", "arg": {"as_graph": )"
            R"({"name": "g", "graph": {"inputs": [], "outputs": [], "nodes": [)";
    close += "]}}}}]}";
  }
  const std::string deep =
      R"({"graph_module": {"graph": {"inputs": [], "outputs": [], "nodes": [)" + open +
      R"({"target": "t", "inputs": [], "outputs": []})" + close +
      R"(]}, "signature": {"input_specs": [], "output_specs": []}},
         "schema_version": {"major": 8}})";
  const Loaded b = load_memory(deep, "p.json");
  ASSERT_GE(b.count("malformed-program"), 1u);
  bool depth_reported = false;
  for (const auto& f : b.findings) depth_reported |= f.message.find("deeper than") != std::string::npos;
  EXPECT_TRUE(depth_reported) << b.dump().substr(0, 2000);
}

TEST(ReadersJson, HugeStringValueIsRefusedWithoutCopy) {
  std::string json = R"({"torch_version": ")";
  json.append(std::size_t{200} << 20, 'a');
  json += "\", " + program_json().substr(1);
  const Loaded r = load_memory(json, "p.json");
  ASSERT_EQ(r.count("malformed-program"), 1u) << r.dump();
  EXPECT_EQ(r.first("malformed-program")->location.json_path, "torch_version");
  EXPECT_NE(r.first("malformed-program")->message.find("longer than the limit"),
            std::string::npos);
  EXPECT_TRUE(r.file.programs[0].program().torch_version().empty());
}

// Maps over 8 keys keep copies of their keys in blocks (json_walker.cc, SeenMapKeys): a
// repeated key is found after hundreds of others, after a key larger than a block, and when
// the repeated key is the large one.
TEST(ReadersJson, RepeatedKeysOfLargeMapsAreFoundPastBlockEdges) {
  const std::string meta = R"({"dtype": 7, "sizes": []})";
  const std::string large(std::size_t{70} << 10, 'k');
  std::string entries;
  for (int i = 0; i < 3000; ++i) entries += "\"v" + std::to_string(i) + "\": " + meta + ", ";
  entries += "\"" + large + "\": " + meta + ", ";
  entries += R"("v17": )" + meta + ", ";
  entries += "\"" + large + "\": " + meta + ", ";
  entries += R"("after": )" + meta;
  const Loaded r = load_memory(program_json(R"(, "tensor_values": {)" + entries + "}"), "p.json");
  ASSERT_EQ(r.count("malformed-program"), 2u) << r.dump();
  EXPECT_NE(r.findings[0].message.find("key 'v17' appears more than once"), std::string::npos)
      << r.findings[0].message;
  EXPECT_NE(r.findings[1].message.find("appears more than once"), std::string::npos)
      << r.findings[1].message;
  EXPECT_EQ(r.file.programs[0].program().graph_module().graph().tensor_values_size(), 3002);
}

// A map key with escapes is unescaped into simdjson's buffer, which consumes the field's raw
// key: the walk must not read it again (simdjson asserts on that in debug builds, and the
// sanitizer build is one; the pipeline property found it through a hostile-name mutant).
TEST(ReadersJson, EscapedMapKeysReadAsTheirText) {
  const std::string meta = R"({"dtype": 7, "sizes": []})";
  const Loaded r = load_memory(
      program_json(R"(, "tensor_values": {"a\nb": )" + meta + R"(, "\u0078": )" + meta + R"(, "y": )" + meta + "}"),
      "p.json");
  ASSERT_EQ(r.outcome, LoadOutcome::kLoaded) << r.dump();
  EXPECT_TRUE(r.findings.empty()) << r.dump();
  const auto& graph = r.file.programs[0].program().graph_module().graph();
  ASSERT_EQ(graph.tensor_values_size(), 3);
  EXPECT_EQ(graph.tensor_values(0).key(), "a\nb");
  EXPECT_EQ(graph.tensor_values(1).key(), "x");
  EXPECT_EQ(graph.tensor_values(2).key(), "y");
}

// One node whose metadata maps stack_trace to `stack` and torch_fn to `fn` (JSON text, quotes
// included).
std::string node_with_metadata(const std::string& stack, const std::string& fn) {
  return R"({"target": "torch.ops.aten.add.Tensor", "inputs": [], "outputs": [], )"
         R"("metadata": {"stack_trace": )" + stack + R"(, "torch_fn": )" + fn + "}}";
}

const std::string& stack_of(const Loaded& r, int node) {
  return r.file.programs[0].program().graph_module().graph().nodes(node).metadata(0).value();
}

// String values with escapes are unescaped into the walker's own buffer (json_walker.h,
// unescape_string), reused from one string to the next: a short string after a long one, every
// kind of escape, a surrogate pair.
TEST(ReadersJson, EscapedStringValuesReadAsTheirText) {
  std::string long_escaped = "\"";
  std::string long_text;
  for (int i = 0; i < 2000; ++i) {
    long_escaped += "line \\\"" + std::to_string(i) + "\\\"\\n";
    long_text += "line \"" + std::to_string(i) + "\"\n";
  }
  long_escaped += "\"";
  const std::string nodes = "[" + node_with_metadata(long_escaped, R"("plain")") + ", " +
                            node_with_metadata(R"("a\\b\/c\td\u00e9\ud83d\ude00")", R"("f\n")") +
                            ", " + node_with_metadata(R"("x\ny")", R"("")") + "]";
  std::string json = program_json();
  json.replace(json.find(R"("nodes": [])"), 11, "\"nodes\": " + nodes);
  const Loaded r = load_memory(json, "p.json");
  ASSERT_EQ(r.outcome, LoadOutcome::kLoaded) << r.dump();
  EXPECT_TRUE(r.findings.empty()) << r.dump();
  EXPECT_EQ(stack_of(r, 0), long_text);
  EXPECT_EQ(stack_of(r, 1), "a\\b/c\td\xc3\xa9\xf0\x9f\x98\x80");
  EXPECT_EQ(stack_of(r, 2), "x\ny");
  const auto& graph = r.file.programs[0].program().graph_module().graph();
  EXPECT_EQ(graph.nodes(0).metadata(1).value(), "plain");
  EXPECT_EQ(graph.nodes(1).metadata(1).value(), "f\n");
}

// A bad escape is the finding it always was (the same simdjson routine unescapes), and the
// walk goes on with the next value.
TEST(ReadersJson, BadEscapeInAStringIsAFindingAtItsPath) {
  std::string json = program_json();
  json.replace(json.find(R"("nodes": [])"), 11,
               "\"nodes\": [" + node_with_metadata(R"("bad \q escape")", R"("ok\n")") + "]");
  const Loaded r = load_memory(json, "p.json");
  ASSERT_EQ(r.count("malformed-program"), 1u) << r.dump();
  EXPECT_EQ(r.first("malformed-program")->location.json_path,
            "graph_module.graph.nodes[0].metadata[\"stack_trace\"]");
  EXPECT_EQ(r.first("malformed-program")->message,
            "expected a string, got string \"bad \\q escape\"");
  EXPECT_EQ(r.file.programs[0].program().graph_module().graph().nodes(0).metadata(1).value(),
            "ok\n");
}

// A document of several MB is given back behind the walk every 1 MB (json_input_release.h):
// every value still reads as its text, and a finding near the end names its path, though the
// pages of the keys above it are long gone.
TEST(ReadersJson, DocumentOfSeveralMegabytesReadsWhileGivenBack) {
  std::string nodes = "[";
  for (int i = 0; i < 12000; ++i) {
    if (i > 0) nodes += ", ";
    const std::string n = std::to_string(i);
    nodes += node_with_metadata("\"File \\\"m.py\\\", line " + n + "\\n    x = f(x)" +
                                    std::string(200, 'p') + "\"",
                                i == 11990 ? "7" : "\"fn_" + n + "\"");
  }
  nodes += "]";
  std::string json = program_json();
  json.replace(json.find(R"("nodes": [])"), 11, "\"nodes\": " + nodes);
  ASSERT_GT(json.size(), std::size_t{3} << 20);
  const Loaded r = load_memory(json, "p.json");
  ASSERT_EQ(r.count("malformed-program"), 1u) << r.dump();
  EXPECT_EQ(r.first("malformed-program")->location.json_path,
            "graph_module.graph.nodes[11990].metadata[\"torch_fn\"]");
  const auto& graph = r.file.programs[0].program().graph_module().graph();
  ASSERT_EQ(graph.nodes_size(), 12000);
  for (int i : {0, 5000, 11999}) {
    const std::string n = std::to_string(i);
    EXPECT_EQ(stack_of(r, i),
              "File \"m.py\", line " + n + "\n    x = f(x)" + std::string(200, 'p'));
    EXPECT_EQ(graph.nodes(i).metadata(1).value(), "fn_" + n);
  }
}

TEST(ReadersJson, FindingsAreCappedWithASummary) {
  std::string sizes;
  for (int i = 0; i < 500; ++i) sizes += std::string(i ? "," : "") + R"({"as_int": 0.5})";
  const Loaded r = load_memory(
      program_json(R"(, "tensor_values": {"x": {"dtype": 7, "sizes": [)" + sizes + "]}}"),
      "p.json");
  EXPECT_EQ(r.findings.size(), 51u);
  EXPECT_NE(r.findings.back().message.find("450 more malformed-program findings"),
            std::string::npos)
      << r.findings.back().message;
}

TEST(ReadersJson, NullMeansUnsetButNotForRequiredFields) {
  const Loaded r = load_memory(program_json(R"(, "tensor_values": {"x": {"dtype": 7,
      "sizes": [], "device": null, "storage_offset": null}}, "is_single_tensor_return": null)"),
                               "p.json");
  EXPECT_TRUE(r.findings.empty()) << r.dump();
  const Loaded bad = load_memory(R"({"graph_module": null, "schema_version": {"major": 8}})",
                                 "p.json");
  EXPECT_EQ(bad.count("malformed-program"), 1u) << bad.dump();
}

TEST(ReadersJson, BadInputWithoutStructure) {
  EXPECT_EQ(load_memory("", "x.pt2").count("malformed-program"), 1u);
  std::string noise;
  for (int i = 0; i < 4096; ++i) noise += static_cast<char>((i * 7919 + 13) % 251);
  const Loaded r = load_memory(noise, "x.pt2");
  EXPECT_EQ(r.count("malformed-program"), 1u) << r.dump();
  EXPECT_EQ(load_memory("{\"a\": \"\xff\xfe\"}", "x.json").count("malformed-program"), 1u);
  EXPECT_EQ(load_memory("  \n[]", "x.json").count("malformed-program"), 1u);
}

TEST(ReadersJson, UnreadablePathIsAnError) {
  const Loaded r = load_path("/nonexistent/dir/model.pt2");
  EXPECT_EQ(r.outcome, LoadOutcome::kUnreadable);
  EXPECT_NE(r.file.error.find("/nonexistent/dir/model.pt2"), std::string::npos);
  EXPECT_TRUE(r.findings.empty());
}


// `check` loads node metadata interned (LoadOptions::intern_node_metadata, core/ir/
// node_metadata.h): every value, escaped or not, a value that is no string, a duplicate key and
// an absent key read as the key/value form reads them, with the same findings at the same paths;
// the internal field is no JSON key (ignored, as every key the reader does not know).
TEST(ReadersJson, InternedNodeMetadataReadsAsTheKeyValueForm) {
  const std::string shared_stack = R"("File \"m.py\", line 3\n    x = y")";
  const std::string nodes =
      "[" + node_with_metadata(shared_stack, R"("add_1")") + ", " +
      node_with_metadata(shared_stack, R"("add_1")") + ", " +
      node_with_metadata(R"("other")", "7") + ", " +
      R"({"target": "torch.ops.aten.add.Tensor", "inputs": [], "outputs": [], )"
      R"("metadata": {"torch_fn": "a", "torch_fn": "b"}, "interned_metadata": [0, 1]}])";
  std::string json = program_json();
  json.replace(json.find(R"("nodes": [])"), 11, "\"nodes\": " + nodes);
  LoadOptions interning;
  interning.intern_node_metadata = true;
  const Loaded plain = load_memory(json, "p.json");
  const Loaded interned = load_memory(json, "p.json", interning);
  ASSERT_EQ(plain.outcome, LoadOutcome::kLoaded) << plain.dump();
  ASSERT_EQ(interned.outcome, LoadOutcome::kLoaded) << interned.dump();
  EXPECT_EQ(plain.dump(), interned.dump());
  EXPECT_NE(plain.dump().find("torch_fn"), std::string::npos) << plain.dump();

  const ir::Program& a = plain.file.programs[0];
  const ir::Program& b = interned.file.programs[0];
  EXPECT_TRUE(a.node_metadata_strings().empty());
  // Two nodes share one stack trace: one copy of it.
  EXPECT_EQ(b.node_metadata_strings_size(), 7) << b.DebugString();
  const auto& a_nodes = a.program().graph_module().graph().nodes();
  const auto& b_nodes = b.program().graph_module().graph().nodes();
  ASSERT_EQ(a_nodes.size(), 4);
  ASSERT_EQ(b_nodes.size(), 4);
  for (int n = 0; n < 4; ++n) {
    EXPECT_TRUE(b_nodes[n].metadata().empty());
    EXPECT_TRUE(a_nodes[n].interned_metadata().empty());
    for (const char* key : {"stack_trace", "torch_fn", "nn_module_stack"}) {
      EXPECT_EQ(ir::node_metadata_value(a, a_nodes[n], key),
                ir::node_metadata_value(b, b_nodes[n], key))
          << "node " << n << " key " << key;
    }
  }
  EXPECT_EQ(ir::node_metadata_value(b, b_nodes[0], "stack_trace"),
            "File \"m.py\", line 3\n    x = y");
  EXPECT_EQ(ir::node_metadata_value(b, b_nodes[3], "torch_fn"), "a");  // the first one stays
  EXPECT_EQ(b_nodes[3].interned_metadata_size(), 2);  // the JSON's "interned_metadata" ignored
  EXPECT_EQ(ir::node_metadata_value(b, b_nodes[2], "torch_fn"), "");  // 7 is no string
}

// An interned pair naming no string (a hand-written textproto) is skipped, never read past.
TEST(ReadersJson, InternedMetadataOutOfRangeIsSkipped) {
  ir::Program program;
  program.add_node_metadata_strings("stack_trace");
  program.add_node_metadata_strings("here");
  ir::Node node;
  for (std::uint32_t id : {0u, 9u, 0u, 1u, 1u}) node.add_interned_metadata(id);
  EXPECT_EQ(ir::node_metadata_value(program, node, "stack_trace"), "here");
  EXPECT_EQ(ir::node_metadata_value(program, node, "here"), "");
  ir::Node odd;
  odd.add_interned_metadata(0);
  EXPECT_EQ(ir::node_metadata_value(program, odd, "stack_trace"), "");
}

}  // namespace
}  // namespace pt2lint
