#include "properties/reducer.h"

#include <google/protobuf/util/message_differencer.h>

#include <algorithm>
#include <string>
#include <vector>

#include "properties/ir_walk.h"

namespace pt2lint::properties {
namespace {

// A deletion: removes the `index`-th thing of its kind; false when there is no such thing.
using Deletion = bool (*)(ir::ProgramSet&, int index);

ir::GraphModule& module(ir::Program& p) { return *p.mutable_program()->mutable_graph_module(); }

// The `index`-th element over every graph of every program, as (graph, position).
template <class Count>
std::pair<ir::Graph*, int> nth_in_graphs(ir::ProgramSet& set, int index, Count count) {
  for (ir::Program& p : *set.mutable_programs()) {
    for (ir::Graph* g : all_graphs(p)) {
      const int n = count(*g);
      if (index < n) return {g, index};
      index -= n;
    }
  }
  return {nullptr, -1};
}

bool drop_program(ir::ProgramSet& set, int index) {
  if (set.programs_size() < 2 || index >= set.programs_size()) return false;
  set.mutable_programs()->DeleteSubrange(index, 1);
  return true;
}

bool drop_node(ir::ProgramSet& set, int index) {
  auto [g, at] = nth_in_graphs(set, index, [](ir::Graph& g) { return g.nodes_size(); });
  if (g == nullptr) return false;
  g->mutable_nodes()->DeleteSubrange(at, 1);
  return true;
}

// Deletes a node and lets its readers read its first tensor input instead: the structure
// stays sound, so the dataflow rules (which need it) still run on the smaller program.
bool bypass_node(ir::ProgramSet& set, int index) {
  for (ir::Program& p : *set.mutable_programs()) {
    for (ir::Graph* g : all_graphs(p)) {
      if (index >= g->nodes_size()) { index -= g->nodes_size(); continue; }
      ir::Node& node = *g->mutable_nodes(index);
      std::string source;
      for_each_read(node, [&](std::string& name) { if (source.empty()) source = name; });
      std::vector<std::string> outputs;
      for_each_defined(node, [&](std::string& name) { outputs.push_back(name); });
      if (source.empty() || outputs.empty()) return false;
      auto redirect = [&](std::string& name) {
        if (std::find(outputs.begin(), outputs.end(), name) != outputs.end()) name = source;
      };
      g->mutable_nodes()->DeleteSubrange(index, 1);
      for (ir::Node& reader : *g->mutable_nodes()) for_each_read(reader, redirect);
      for (ir::Argument& out : *g->mutable_outputs()) for_each_tensor_name(out, redirect);
      if (g == &*p.mutable_program()->mutable_graph_module()->mutable_graph())
        for (ir::OutputSpec& spec : *module(p).mutable_signature()->mutable_output_specs())
          if (std::string* value = output_spec_value(spec)) redirect(*value);
      return true;
    }
  }
  return false;
}

bool drop_tensor_meta(ir::ProgramSet& set, int index) {
  auto [g, at] = nth_in_graphs(set, index, [](ir::Graph& g) { return g.tensor_values_size(); });
  if (g == nullptr) return false;
  g->mutable_tensor_values()->DeleteSubrange(at, 1);
  return true;
}

bool drop_node_input(ir::ProgramSet& set, int index) {
  for (ir::Program& p : *set.mutable_programs())
    for (ir::Graph* g : all_graphs(p))
      for (ir::Node& node : *g->mutable_nodes()) {
        if (index < node.inputs_size()) {
          node.mutable_inputs()->DeleteSubrange(index, 1);
          return true;
        }
        index -= node.inputs_size();
      }
  return false;
}

// Graph output i and output spec i of the main graphs, together; or each alone.
template <bool kOutput, bool kSpec>
bool drop_output(ir::ProgramSet& set, int index) {
  for (ir::Program& p : *set.mutable_programs()) {
    ir::Graph& g = *module(p).mutable_graph();
    ir::GraphSignature& sig = *module(p).mutable_signature();
    const int n = std::max(kOutput ? g.outputs_size() : 0, kSpec ? sig.output_specs_size() : 0);
    if (index >= n) { index -= n; continue; }
    if (kOutput && index < g.outputs_size()) g.mutable_outputs()->DeleteSubrange(index, 1);
    if (kSpec && index < sig.output_specs_size()) sig.mutable_output_specs()->DeleteSubrange(index, 1);
    return true;
  }
  return false;
}

bool drop_input(ir::ProgramSet& set, int index) {
  for (ir::Program& p : *set.mutable_programs()) {
    ir::Graph& g = *module(p).mutable_graph();
    ir::GraphSignature& sig = *module(p).mutable_signature();
    const int n = std::max(g.inputs_size(), sig.input_specs_size());
    if (index >= n) { index -= n; continue; }
    if (index < g.inputs_size()) g.mutable_inputs()->DeleteSubrange(index, 1);
    if (index < sig.input_specs_size()) sig.mutable_input_specs()->DeleteSubrange(index, 1);
    return true;
  }
  return false;
}

// Everything a program carries besides its graph and signature, one kind at a time (a
// candidate that changes nothing is skipped by the caller).
bool drop_extras(ir::ProgramSet& set, int index) {
  if (index > 5) return false;
  for (ir::Program& p : *set.mutable_programs()) {
    ir::ExportedProgram& ep = *p.mutable_program();
    switch (index) {
      case 0:
        for (ir::Graph* g : all_graphs(p))
          for (ir::Node& node : *g->mutable_nodes()) node.clear_metadata();
        break;
      case 1: module(p).clear_module_call_graph(); break;
      case 2: module(p).clear_metadata(); break;
      case 3: p.clear_weights(); p.clear_constants(); break;  // no state files: no state-dict checks
      case 4: ep.clear_range_constraints(); ep.clear_opset_version(); break;
      case 5: ep.clear_guards_code(); ep.clear_torch_version(); break;
    }
  }
  return true;
}

}  // namespace

ir::ProgramSet reduce(ir::ProgramSet set, const StillFails& still_fails, ReduceStats* stats) {
  static constexpr Deletion kDeletions[] = {
      drop_program, drop_extras, drop_node, bypass_node, drop_output<true, true>, drop_output<false, true>,
      drop_output<true, false>, drop_input, drop_tensor_meta, drop_node_input,
  };
  ReduceStats local;
  ReduceStats& s = stats != nullptr ? *stats : local;
  for (bool progress = true; progress;) {
    progress = false;
    for (Deletion deletion : kDeletions) {
      // Count the candidates, then try them from the last: a kept deletion never shifts the
      // indices still to try.
      int n = 0;
      for (ir::ProgramSet probe = set; deletion(probe, n);) probe = set, ++n;
      for (int i = n - 1; i >= 0; --i) {
        ir::ProgramSet candidate = set;
        if (!deletion(candidate, i) || google::protobuf::util::MessageDifferencer::Equals(candidate, set)) continue;
        ++s.tries;
        if (!still_fails(candidate)) continue;
        set = std::move(candidate);
        ++s.kept;
        progress = true;
      }
    }
  }
  return set;
}

}  // namespace pt2lint::properties
