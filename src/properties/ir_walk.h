// Small walkers over the IR for the mutator and the reducer: every graph (subgraphs of
// higher-order ops included) and every tensor name an argument holds.
#pragma once

#include <functional>
#include <string>
#include <vector>

#include "program.pb.h"

namespace pt2lint::properties {

// The main graph first, then every subgraph reached through a GraphArgument, depth first.
std::vector<ir::Graph*> all_graphs(ir::Program& program);

// Calls `visit` on each tensor (and token) name `argument` holds.
void for_each_tensor_name(ir::Argument& argument, const std::function<void(std::string&)>& visit);

// Every tensor name the node reads (its inputs) or defines (its outputs).
void for_each_read(ir::Node& node, const std::function<void(std::string&)>& visit);
void for_each_defined(ir::Node& node, const std::function<void(std::string&)>& visit);

// The value an output spec carries, and the state a mutation output spec writes (nullptr for
// other kinds).
std::string* output_spec_value(ir::OutputSpec& spec);
std::string* mutation_target(ir::OutputSpec& spec);

// The state FQN (or user input name) of an input spec; nullptr for tokens and constants.
std::string* input_spec_state(ir::InputSpec& spec);

}  // namespace pt2lint::properties
