#include "core/ir/node_metadata.h"

namespace pt2lint::ir {

std::string_view node_metadata_value(const Program& program, const Node& node, std::string_view key) {
  for (const StringEntry& entry : node.metadata())
    if (entry.key() == key) return entry.value();
  const auto& ids = node.interned_metadata();
  const auto& strings = program.node_metadata_strings();
  const auto known = static_cast<std::uint32_t>(strings.size());
  for (int i = 0; i + 1 < ids.size(); i += 2) {
    if (ids[i] >= known || ids[i + 1] >= known) continue;
    if (strings[static_cast<int>(ids[i])] == key) return strings[static_cast<int>(ids[i + 1])];
  }
  return {};
}

}  // namespace pt2lint::ir
