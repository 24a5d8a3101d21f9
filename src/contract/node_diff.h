// `pt2lint diff` below the signature: the nodes of the two programs' root graphs matched one
// to one by what they are (op, module stack, origin), never by position, and what changed on
// each matched pair:
// - a read of state that BEFORE writes became the read of a tensor constant
//   (written-state-became-constant);
// - a scalar literal of the op changed value (literal-changed, opt-in);
// - node metadata keys BEFORE's node carries are gone (metadata-lost, opt-in).
#pragma once

#include <set>
#include <string>
#include <vector>

#include "contract/contract_diff.h"
#include "contract/mutation_contract.h"
#include "core/diagnostic_sink.h"
#include "program.pb.h"

namespace pt2lint {

// Nodes of BEFORE's and AFTER's root graphs paired one to one: indices into graph().nodes().
// Unpaired nodes (inserted or removed by the lowering) are in neither list.
struct NodeMatching {
  std::vector<std::pair<int, int>> pairs;  // (before node, after node), in BEFORE's order
  int before_nodes = 0, after_nodes = 0;
};

// Matches by, in turn: AFTER's from_node naming BEFORE's node (name and op); op, module path
// and original node together; op and module path; op and node name. Within one key, the k-th
// unmatched node of BEFORE pairs with the k-th of AFTER, so an inserted node shifts at most the
// nodes that share all of its key.
NodeMatching match_nodes(const ir::Graph& before, const ir::Graph& after);

// The node-level findings of one pair of programs, filed under AFTER's program name. Opt-in
// rules report only when their ID is in `opt_in`.
void diff_nodes(const ir::Program& before, const ir::Program& after, const ProgramContract& before_contract,
                const ProgramContract& after_contract, const RenameMap& renames,
                const std::set<std::string, std::less<>>& opt_in, DiagnosticSink& sink);

}  // namespace pt2lint
