#include "analysis/opschema/op_schema.h"

#include <algorithm>

namespace pt2lint::opschema {

std::optional<OperatorName> parse_serialized_target(std::string_view target) {
  constexpr std::string_view kPrefix = "torch.ops.";
  if (!target.starts_with(kPrefix)) return std::nullopt;
  std::string_view rest = target.substr(kPrefix.size());
  std::size_t first_dot = rest.find('.');
  std::size_t last_dot = rest.rfind('.');
  // Exactly NS.OP.OVERLOAD: higher-order ops (`higher_order.cond`) have no overload part.
  if (first_dot == std::string_view::npos || last_dot == first_dot) return std::nullopt;
  std::string_view ns = rest.substr(0, first_dot);
  std::string_view op = rest.substr(first_dot + 1, last_dot - first_dot - 1);
  std::string_view overload = rest.substr(last_dot + 1);
  if (ns.empty() || op.empty() || op.find('.') != std::string_view::npos) return std::nullopt;
  OperatorName name;
  name.name.reserve(ns.size() + 2 + op.size());
  name.name.append(ns).append("::").append(op);
  if (overload != "default") name.overload = std::string(overload);
  return name;
}

std::string_view OpSchema::base_name() const {
  std::string_view full = name();
  std::size_t colons = full.find("::");
  return colons == std::string_view::npos ? full : full.substr(colons + 2);
}

OpSchema::OpSchema(const SchemaRecord& record)
    : record_(&record),
      arguments_(op_table().arguments.subspan(record.first_argument, record.argument_count)),
      returns_(op_table().returns.subspan(record.first_return, record.return_count)) {}

int OpSchema::argument_index(std::string_view name) const {
  std::span<const ArgumentRecord> args = arguments();
  for (std::size_t i = 0; i < args.size(); ++i) {
    if (args[i].name == name) return static_cast<int>(i);
  }
  return -1;
}

std::optional<OpSchema> OpSchema::functional_twin() const {
  if (record_->functional_twin == kNoTwin) return std::nullopt;
  return OpSchema(op_table().schemas[record_->functional_twin]);
}

std::optional<OpSchema> OpSchema::inplace_twin() const {
  if (record_->inplace_twin == kNoTwin) return std::nullopt;
  return OpSchema(op_table().schemas[record_->inplace_twin]);
}

std::string OpSchema::provenance_target() const {
  std::string_view full = name();
  std::size_t colons = full.find("::");
  std::string out;
  if (colons == std::string_view::npos) {
    out = std::string(full);
  } else {
    out.append(full.substr(0, colons)).append(".").append(full.substr(colons + 2));
  }
  out.append(".").append(overload().empty() ? std::string_view("default") : overload());
  return out;
}

std::optional<OpSchema> find_schema(std::string_view name, std::string_view overload) {
  std::span<const SchemaRecord> schemas = op_table().schemas;
  auto it = std::lower_bound(schemas.begin(), schemas.end(), std::pair(name, overload),
                             [](const SchemaRecord& record, const auto& key) {
                               if (record.name != key.first) return record.name < key.first;
                               return record.overload < key.second;
                             });
  if (it == schemas.end() || it->name != name || it->overload != overload) return std::nullopt;
  return OpSchema(*it);
}

std::optional<OpSchema> find_schema(const OperatorName& op) {
  return find_schema(op.name, op.overload);
}

}  // namespace pt2lint::opschema
