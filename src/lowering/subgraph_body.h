// Functionalizes the body of a higher-order op (the subgraph of wrap_with_set_grad_enabled,
// wrap_with_autocast) the way PyTorch's functionalization does for its own higher-order ops:
// the body keeps its outputs and returns, after them, the new value of every input it wrote.
// The caller then treats those extra outputs as the new values of the operands.
#pragma once

#include <functional>
#include <string>
#include <string_view>
#include <utility>
#include <vector>

#include "program.pb.h"
#include "support/status.h"

namespace pt2lint::lowering {

struct FunctionalBody {
  ir::Graph graph;                  // the functional body
  std::vector<int> written_inputs;  // graph input index of each appended output, in order
  int writes = 0;                   // in-place writes rewritten inside
};

// What the caller's functionalizer lends to the lowering of one call node.
struct CallerValues {
  std::function<std::string(const std::string&)> read;  // the name that holds a value now
  std::function<std::string(std::string_view)> fresh;    // a new value name from a stem
  std::function<void(const std::string&, const std::string&)> copy_meta;  // from, to
};

struct LoweredCall {
  ir::Node node;      // the call, with functional bodies and reads redirected
  std::vector<std::pair<std::string, std::string>> writes;  // caller value -> its new value
  // Outputs that are an operand itself (the subgraph returned it): output -> caller value.
  std::vector<std::pair<std::string, std::string>> same_as;
  std::vector<std::string> view_outputs;  // outputs that are a view of an operand
  int rewritten = 0;
};

bool has_graph_argument(const ir::Node& node);

// Lowers a node with graph arguments: kept as it is when no subgraph writes anything; a
// grad-mode or autocast region that writes is functionalized (its body returns the new
// values of the operands it wrote, as extra outputs of the call); any other write inside a
// subgraph is refused by name (the message says why the call cannot be lowered).
Expected<LoweredCall> lower_subgraph_call(const ir::Node& node, const CallerValues& caller);

}  // namespace pt2lint::lowering
