// Lookups over the generated operator table: from a serialized node target
// (`torch.ops.aten.index_put.default`) to the schema PyTorch registered for it.
#pragma once

#include <optional>
#include <span>
#include <string>
#include <string_view>

#include "analysis/opschema/op_table.h"

namespace pt2lint::opschema {

// A serialized target split into the schema's qualified name and overload.
struct OperatorName {
  std::string name;      // "aten::index_put"
  std::string overload;  // "" for `.default`
};

// `torch.ops.NS.OP.OVERLOAD` -> {"NS::OP", OVERLOAD}, with `default` meaning "". Anything
// else (`_operator.getitem`, `torch.ops.higher_order.cond`, a bare Python callable) has no
// schema: nullopt.
std::optional<OperatorName> parse_serialized_target(std::string_view target);

// A read-only view of one table record.
class OpSchema {
 public:
  // A record of the generated table.
  explicit OpSchema(const SchemaRecord& record);
  // A record parsed at run time (schema_catalog.h): it has no twins.
  OpSchema(const SchemaRecord& record, std::span<const ArgumentRecord> arguments,
           std::span<const ReturnRecord> returns)
      : record_(&record), arguments_(arguments), returns_(returns) {}

  std::string_view name() const { return record_->name; }
  std::string_view overload() const { return record_->overload; }
  // The part after `::`: "index_copy_".
  std::string_view base_name() const;
  std::span<const ArgumentRecord> arguments() const { return arguments_; }
  std::span<const ReturnRecord> returns() const { return returns_; }
  bool is_mutable() const { return record_->is_mutable; }
  // Index of the argument called `name`, or -1.
  int argument_index(std::string_view name) const;
  std::optional<OpSchema> functional_twin() const;
  std::optional<OpSchema> inplace_twin() const;
  // The serialized spelling, `aten.add_.Tensor`, as `from_node` metadata writes targets.
  std::string provenance_target() const;
  const SchemaRecord& record() const { return *record_; }

 private:
  const SchemaRecord* record_;
  std::span<const ArgumentRecord> arguments_;
  std::span<const ReturnRecord> returns_;
};

std::optional<OpSchema> find_schema(std::string_view name, std::string_view overload);
std::optional<OpSchema> find_schema(const OperatorName& op);

}  // namespace pt2lint::opschema
