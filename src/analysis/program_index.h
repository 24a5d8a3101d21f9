// Answers the questions rules ask about one program: who produces a value, who reads it,
// which spec describes a placeholder, where a spec sits. Built once per program; it
// borrows the program, which must outlive it and stay unmodified.
#pragma once

#include <array>
#include <cstdint>
#include <memory>
#include <mutex>
#include <optional>
#include <span>
#include <string>
#include <string_view>
#include <vector>

#include "core/ir/ir_accessors.h"
#include "support/name_table.h"
#include "program.pb.h"

namespace pt2lint {

namespace opschema {
class SchemaCatalog;
}

// What a run knows about ops beyond the ATen table (see schema_catalog.h), set by the engine.
struct OpKnowledge {
  const opschema::SchemaCatalog* schemas = nullptr;  // --op-schemas and config `op-schemas`
  bool report_parameters = false;  // --unknown-ops-parameters: PT310 also for parameters
};

// A value is defined either by graph input `placeholder` or by output of node `node`.
struct ValueDef {
  int placeholder = -1;  // index into graph.inputs
  int node = -1;         // index into graph.nodes
};

class StateStorage;
struct CacheWrite;

class HandOff;

class ProgramIndex {
 public:
  // With `other`, a thread serving it reads half of the nodes' names meanwhile (a large
  // program, engine.cc): the same index.
  explicit ProgramIndex(const ir::Program& program, HandOff* other = nullptr);

  const ir::Program& program() const { return program_; }
  const std::string& name() const { return program_.name(); }
  const ir::ExportedProgram& exported() const { return program_.program(); }
  const ir::Graph& graph() const { return program_.program().graph_module().graph(); }
  const ir::GraphSignature& signature() const {
    return program_.program().graph_module().signature();
  }
  Dialect dialect() const { return dialect_; }

  // Values.
  std::optional<ValueDef> definition(std::string_view value) const;  // first definition
  int definition_count(std::string_view value) const;
  std::span<const int> users(std::string_view value) const;  // node indices, in order
  const ir::TensorMeta* tensor_meta(std::string_view value) const;
  bool has_sym_value(std::string_view value) const;
  // Whether `value` has an entry in `table` (the first entry, for a duplicated key).
  bool has_metadata(std::string_view value, ValueTable table) const;

  // Facts about the top-level graph gathered in the same walk, so that the SSA rules can
  // skip their own walk of a sound graph (the usual case) and walk only when they will
  // report. Each is exactly the condition under which that rule reports at the top level.
  struct SsaFacts {
    // Every node reads only values a graph input or an earlier node defines
    // (value-defined-before-use; graph outputs are checked by the rule itself).
    bool reads_defined = true;
    // No name is defined twice among graph inputs, node outputs and node names
    // (value-names-unique).
    bool names_unique = true;
    // Every tensor or symbol a graph input or node defines has its metadata entry
    // (value-has-metadata).
    bool metadata_complete = true;
  };
  const SsaFacts& ssa_facts() const { return ssa_facts_; }
  // Top-level nodes with a subgraph argument (higher-order ops), in graph order.
  const std::vector<int>& subgraph_nodes() const { return subgraph_nodes_; }
  // The top-level nodes' targets, interned: op ids 0..op_count()-1, one per distinct target.
  // A rule that looks for a few ops decides once per op and then reads one dense array, not
  // every node's target string: at 100k nodes the IR is far larger than the caches, and a
  // scan of the targets cost ~100 ns a node (docs/performance.md).
  int node_op(int node) const { return node_ops_[static_cast<std::size_t>(node)]; }
  int op_count() const { return static_cast<int>(ops_.size()); }
  std::string_view op_name(int op) const { return ops_.name(op); }

  // Placeholders and specs.
  const std::vector<std::string_view>& placeholder_names() const { return placeholders_; }
  const std::vector<std::string_view>& output_names() const { return outputs_; }
  std::optional<int> input_spec_index(std::string_view placeholder) const;  // by arg name
  const ir::InputSpec* input_spec_for(std::string_view placeholder) const;
  std::optional<int> input_spec_by_target(StateKind kind, std::string_view fqn) const;

  // Node lookups.
  std::optional<int> node_by_name(std::string_view node_name) const;
  // fx_node_name() of node `node`.
  std::string_view node_name(int node) const;
  std::string_view node_metadata(int node, std::string_view key) const;  // "" when absent

  // The dataflow resolves node targets against these schemas after the ATen table.
  const opschema::SchemaCatalog* op_schemas() const { return op_knowledge_.schemas; }
  const OpKnowledge& op_knowledge() const { return op_knowledge_; }
  void set_op_knowledge(const OpKnowledge& knowledge) { op_knowledge_ = knowledge; }

  // Which state names share one storage (src/analysis/state/state_storage.h); built on first use.
  const StateStorage& storage() const;
  // Every write of a buffer at a position range (src/analysis/state/cache_ranges.h); built on
  // first use. Two rules and the --verbose summary read it: finding them once instead of three
  // times saves 7.8 M instructions on kv_nested_256l (370.2 M -> 362.4 M).
  const std::vector<CacheWrite>& cache_writes() const;
  // Every program of the file this one came from (itself included), for rules about state
  // the programs of one archive share; just this one unless the engine says otherwise.
  std::span<const ir::Program* const> archive_programs() const {
    return archive_programs_.empty() ? std::span<const ir::Program* const>(&self_, 1)
                                     : archive_programs_;
  }
  void set_archive_programs(std::span<const ir::Program* const> programs) {
    archive_programs_ = programs;
  }

 private:
  // Everything known about one interned name (value, node or placeholder name).
  struct NameInfo {
    ValueDef first;        // first definition; neither set when nothing defines it
    int definitions = 0;
    int node = -1;         // first node with this FX name
    int input_spec = -1;   // first input spec whose arg names it
    const ir::TensorMeta* tensor_meta = nullptr;  // first tensor_values entry
    std::uint8_t tables = 0;  // bit (1 << ValueTable): has an entry in that table
    bool defined() const { return first.placeholder >= 0 || first.node >= 0; }
  };
  // Input specs with a target, by kind (parameter, buffer, tensor_constant, custom_obj).
  static constexpr int kTargetKinds = 4;

  int intern(std::string_view name);
  int intern_hashed(std::string_view name, std::uint64_t hash);
  const NameInfo* info(std::string_view name) const;
  void index_tables(const ir::Graph& graph);
  void index_values(const ir::Graph& graph, HandOff* other);
  void index_specs();

  const ir::Program& program_;
  Dialect dialect_ = Dialect::kUnknown;
  std::vector<std::string_view> placeholders_;
  std::vector<std::string_view> outputs_;
  NameTable names_;
  std::vector<NameInfo> infos_;  // by name id
  // users(name id) = user_nodes_[user_begin_[id] .. user_begin_[id + 1]) (CSR).
  std::vector<int> user_begin_;
  std::vector<int> user_nodes_;
  NameTable targets_;  // input spec target FQNs
  std::vector<std::array<int, kTargetKinds>> spec_by_target_;  // by target id, by kind
  SsaFacts ssa_facts_;
  std::vector<int> subgraph_nodes_;
  NameTable ops_;              // node targets
  std::vector<int> node_ops_;  // by node: its target's id in ops_
  OpKnowledge op_knowledge_;

  // Built on first use, by whichever of the rules' threads asks first (engine/rule_phase.h).
  mutable std::once_flag storage_once_;
  mutable std::shared_ptr<const StateStorage> storage_;
  mutable std::once_flag cache_writes_once_;
  mutable std::shared_ptr<const std::vector<CacheWrite>> cache_writes_;
  const ir::Program* self_ = &program_;
  std::span<const ir::Program* const> archive_programs_;
};

}  // namespace pt2lint
