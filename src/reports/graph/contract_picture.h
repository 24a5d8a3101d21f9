// A picture of a program's mutation contract: the state placeholders, the slice of nodes
// between each state and its write-back, and the output specs (see docs/graph.md).
//
// The picture is plain data, drawn by the DOT, SVG and Mermaid writers. It is built from
// the program while its IR is alive and never holds a pointer into it.
#pragma once

#include <map>
#include <memory>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include "analysis/dataflow/effective_mutations.h"

namespace pt2lint {

class ProgramIndex;
namespace dataflow {
class ProgramDataflow;
}

namespace graph {

enum class BoxKind {
  kState,      // a placeholder: parameter, buffer, constant or user input (before the run)
  kNode,       // a graph node on the slice
  kCollapsed,  // "… 37 nodes …": the middle of a long chain
  kOutput,     // an output spec
  kTarget,     // the state an output writes back to (after the run)
  kMissing,    // what should exist and does not: a dropped write-back, an unknown target
};

enum class EdgeKind {
  kData,       // a value flows from one box to the next
  kWriteBack,  // an output spec writes its value back to a state
  kWrong,      // the broken edge of a finding: red, bold and labelled "✗ ..."
  kExpected,   // what the edge should have been: dashed and labelled "expected ..."
};

struct Box {
  std::string id;      // stable, DOT-safe: "s3", "n120", "o0", "t3", "m0", "c1"
  BoxKind kind = BoxKind::kNode;
  std::string title;   // FQN, node name or "output_specs[3]"
  std::string detail;  // "buffer (1, 8) float32", "index_put (1, 8) float32", ...
  bool focus = false;  // the box the finding is about (drawn with a double border)
};

struct Edge {
  int from = 0;
  int to = 0;
  EdgeKind kind = EdgeKind::kData;
  std::string label;
};

struct Picture {
  std::string title;  // "kv.pt2:model: PT301 output_specs[0]", or the program name
  std::vector<Box> boxes;
  std::vector<Edge> edges;
};

// Chains longer than this are drawn as their first and last two nodes around one
// "… N nodes …" box, so that a picture of a 9,000-node program stays readable.
inline constexpr std::size_t kMaxChainNodes = 5;
// A state's write-backs beyond this many are drawn as one "… N more write-backs …" box.
inline constexpr std::size_t kMaxWriteBacksDrawn = 6;

// Adds slices of one program to a picture. Boxes are shared: asking twice for the same
// state, node or output gives the same box.
class ContractPictureBuilder {
 public:
  // `trace_values`: whether values may be traced through the graph (its SSA form is sound);
  // when not, an output is drawn with only the node that produces its value.
  ContractPictureBuilder(const ProgramIndex& index, bool trace_values);
  ~ContractPictureBuilder();

  // A state placeholder, its write-back outputs with their slices, or, with no write-back,
  // the nodes that write it in place.
  void add_state(int placeholder);
  // An output spec, the slice of its value back to the state it updates, and the state it
  // writes back to (or a missing box naming the target that does not resolve).
  void add_output(int spec);
  // The slice of a value back to the state it updates (or to its producer); returns the
  // box of the value's producer (or its state), -1 when the value has no definition.
  int add_value(std::string_view value);
  // A node with the slice of its first output; returns its box.
  int add_node(int node);

  int state_box(int placeholder);
  int target_box(int placeholder);
  int node_box(int node);
  int output_box(int spec);
  int missing_box(std::string title, std::string detail);
  int collapsed_box(std::string title, std::string detail);
  // The states the program writes (its effective mutation set; only the resolved
  // write-backs when values cannot be traced), in input-spec order.
  const std::vector<dataflow::StateWrite>& written_states();

  // The edge from -> to, added when absent, given `kind` and `label`.
  void mark(int from, int to, EdgeKind kind, std::string label);
  void focus(int box);
  // The placeholder a value updates or aliases (-1: none or not traced).
  int origin_of_value(std::string_view value);
  // The placeholder an output spec writes back to, or -1.
  int write_back_target(int spec) const;
  // "`name` (1, 8) float32" of a placeholder or value, for labels.
  std::string meta_of_value(std::string_view value) const;
  std::string state_name(int placeholder) const;  // FQN, or the user input's name
  std::string state_kind(int placeholder) const;  // "buffer", "user input", ...

  const Picture& picture() const { return picture_; }
  Picture take(std::string title);

 private:
  int add_box(std::string id, BoxKind kind, std::string title, std::string detail);
  void add_edge(int from, int to, EdgeKind kind, std::string label = {});
  // Boxes for the producers of `nodes` (origin first), collapsed when long; returns the last.
  int add_node_chain(int first_box, const std::vector<int>& nodes);

  const ProgramIndex& index_;
  bool trace_values_;
  std::unique_ptr<dataflow::ProgramDataflow> flow_;  // only when tracing
  Picture picture_;
  std::map<std::string, int> box_by_id_;
  std::map<int, std::string_view> traced_output_;  // node -> the output a traced slice passes
  // Computed on first use, once per builder: a whole-program picture asks for every state.
  std::optional<std::vector<dataflow::ResolvedWriteBack>> write_backs_;
  std::optional<std::vector<dataflow::StateWrite>> mutations_;
  int collapsed_ = 0;
  int missing_ = 0;
};

}  // namespace graph
}  // namespace pt2lint
