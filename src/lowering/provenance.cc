#include "lowering/provenance.h"

#include <string>

#include "io/writers/python_json_text.h"

namespace pt2lint::lowering {
namespace {

// "torch.ops.aten.add_.Tensor" -> "aten.add_.Tensor", the spelling from_node records use.
std::string_view short_target(std::string_view target) {
  constexpr std::string_view kPrefix = "torch.ops.";
  if (target.starts_with(kPrefix)) target.remove_prefix(kPrefix.size());
  return target;
}

// The origin's own history, which is JSON text already; anything else starts a fresh one.
std::string_view nested_history(const ir::Node& origin) {
  for (const ir::StringEntry& entry : origin.metadata()) {
    if (entry.key() != "from_node") continue;
    std::string_view text = entry.value();
    while (!text.empty() && text.front() == ' ') text.remove_prefix(1);
    if (text.starts_with('[') && text.ends_with(']')) return entry.value();
  }
  return "[]";
}

}  // namespace

void set_created_from(ir::Node& created, const ir::Node& origin, std::string_view origin_name) {
  created.clear_metadata();
  for (const ir::StringEntry& entry : origin.metadata()) {
    if (entry.key() != "from_node") *created.add_metadata() = entry;
  }
  std::string record = "[{\"name\": ";
  append_json_string(record, origin_name);
  record += ", \"target\": ";
  append_json_string(record, short_target(origin.target()));
  record += ", \"graph_id\": 0, \"pass_name\": ";
  append_json_string(record, kLoweringPassName);
  record += ", \"action\": \"create\", \"from_node\": ";
  record += nested_history(origin);
  record += "}]";
  ir::StringEntry* entry = created.add_metadata();
  entry->set_key("from_node");
  entry->set_value(std::move(record));
}

}  // namespace pt2lint::lowering
