// The state of one functionalize() run (functionalize.h), shared by the files that implement
// it: functionalize.cc (the run, from nodes to a program), functionalizer_values.cc (which
// name holds a value now, views and their write-backs), functionalizer_nodes.cc (one lowering
// per kind of node) and functionalizer_outputs.cc (mutation outputs, graph and signature).
// Not for use outside src/lowering/functionalize*.cc.
#pragma once

#include <cstdint>
#include <deque>
#include <functional>
#include <optional>
#include <string>
#include <string_view>
#include <unordered_map>
#include <unordered_set>
#include <vector>

#include "analysis/opschema/op_schema.h"
#include "lowering/name_allocator.h"
#include "program.pb.h"

namespace pt2lint::opschema {
class SchemaCatalog;
}

namespace pt2lint::lowering {

// Why the program cannot be lowered; thrown by the Functionalizer, caught by functionalize().
// An exception (the one internal one of this layer) because a refusal is decided many calls
// deep in the node walk, and every step in between would otherwise forward it by hand.
struct LoweringError {
  std::string message;
};

// The schema of a serialized target ("torch.ops.aten.add_.Tensor"), if the table knows it.
std::optional<opschema::OpSchema> schema_of(std::string_view target);

class Functionalizer {
 public:
  Functionalizer(const ir::ExportedProgram& program, const opschema::SchemaCatalog* schemas);

  // Throws LoweringError.
  ir::ExportedProgram run();

  int rewritten() const { return rewritten_; }

 private:
  struct ViewOf {
    std::string parent;    // canonical value the view was taken of
    const ir::Node* node;  // the view node (element_views_ for an element of a split); null:
                           // an element of a multi-output view that has no single-view spelling
    std::string producer;  // that node's name, for messages
    std::string why_not;   // when node is null: why
  };
  struct Seen {
    std::string current;  // the name that holds the value
    int version = 0;      // writes to its base it reflects
  };
  // An argument an in-place op writes, and the value it names.
  struct Written {
    std::string argument;
    std::string value;
  };

  // ---- value state (functionalizer_values.cc)
  std::string canonical(std::string value) const;
  std::string base_of(std::string value) const;
  void refuse_view_cycle(const std::string& view, const std::string& parent,
                         const ir::Node& node) const;
  int writes_to(const std::string& base) const;
  std::string read(const std::string& value);
  void write(const std::string& target, const std::string& new_value, const ir::Node& cause);
  const ir::TensorMeta* meta(const std::string& value) const;
  void set_contiguous_sizes(const std::string& value, const std::vector<std::int64_t>& sizes);
  void copy_meta(const std::string& from, const std::string& to);
  void record_views(int index, const opschema::OpSchema& schema);
  void record_element_views(const ir::Node& node, const opschema::OpSchema& schema,
                            const std::string& parent, int version,
                            const ir::TensorArgumentList& elements);
  bool returns_input_unchanged(const opschema::OpSchema& schema, const ir::Node& node,
                               const std::string& in, const std::string& out) const;

  // ---- nodes (functionalizer_nodes.cc)
  void process(int index);
  void lower_call(const ir::Node& node);
  void keep(int index, const opschema::OpSchema* schema);
  void keep_unindexed(const ir::Node& node);
  void lower_write(const ir::Node& node, const opschema::OpSchema& schema);
  std::vector<Written> written_arguments(const ir::Node& node,
                                         const opschema::OpSchema& schema) const;
  std::vector<std::string> bind_inplace_outputs(const ir::Node& node,
                                                const opschema::OpSchema& schema,
                                                const std::vector<Written>& written);
  void lower_custom_write(const ir::Node& node, const opschema::OpSchema& schema);
  static bool is_training_batch_norm(const opschema::OpSchema& schema, const ir::Node& node);
  void lower_batch_norm(const ir::Node& node, const opschema::OpSchema& schema);

  // ---- outputs and signature (functionalizer_outputs.cc)
  void assemble_outputs(ir::GraphModule& module);
  static int input_spec_index_of_target(const ir::GraphSignature& signature,
                                        const ir::OutputSpec& spec);
  static void rewrite_spec_values(ir::OutputSpec& spec,
                                  const std::function<std::string(const std::string&)>& rename);
  void rebuild_graph(ir::Graph& graph);
  void rename_call_graph(ir::GraphModule& module);

  const ir::ExportedProgram& program_;
  const ir::Graph& graph_;
  const opschema::SchemaCatalog* schemas_;  // custom op schemas (auto_functionalize.h)
  NameAllocator names_;
  std::unordered_map<std::string, ir::TensorMeta> meta_;
  std::unordered_map<std::string, std::string> same_as_;  // in-place output -> what it wrote
  std::unordered_map<std::string, ViewOf> views_;
  std::deque<ir::Node> element_views_;  // stable addresses for ViewOf::node
  std::unordered_set<std::string> call_views_;  // call outputs that are views of an operand
  std::unordered_map<std::string, int> writes_;  // base -> number of writes so far
  std::unordered_map<std::string, Seen> seen_;
  std::unordered_set<std::string> defined_;
  std::vector<ir::Node> nodes_;
  int rewritten_ = 0;
};

}  // namespace pt2lint::lowering
