#include "contract/recorded_renames.h"

#include <string>
#include <string_view>

#include <simdjson.h>

namespace pt2lint {
namespace {

bool read_recorded_mapping(simdjson::dom::element element, RenameMap& out) {
  simdjson::dom::object object;
  if (element.get(object)) return false;
  for (auto [key, value] : object) {
    std::string_view text;
    if (value.get(text)) return false;
    out.emplace(std::string(key), std::string(text));
  }
  return true;
}

}  // namespace

Expected<std::optional<RenameMap>> recorded_renames(const ir::Program& program) {
  simdjson::dom::parser parser;
  for (const ir::StringEntry& item : program.program().graph_module().metadata()) {
    RenameMap mapping;
    if (item.key() == kRenameMetadataKey) {
      simdjson::dom::element element;
      if (parser.parse(item.value()).get(element) || !read_recorded_mapping(element, mapping))
        return Status::error(std::string("metadata entry '") + kRenameMetadataKey +
                             "' is not a JSON object of strings");
      return std::optional<RenameMap>(std::move(mapping));
    }
    if (item.key() != "custom") continue;
    simdjson::dom::element custom;
    if (parser.parse(item.value()).get(custom)) continue;
    simdjson::dom::element recorded;
    if (custom[kRenameMetadataKey].get(recorded)) continue;
    if (!read_recorded_mapping(recorded, mapping))
      return Status::error(std::string("metadata custom['") + kRenameMetadataKey +
                           "'] is not a JSON object of strings");
    return std::optional<RenameMap>(std::move(mapping));
  }
  return std::optional<RenameMap>();
}

}  // namespace pt2lint
