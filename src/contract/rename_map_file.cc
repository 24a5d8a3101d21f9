#include "contract/rename_map_file.h"

#include <fmt/format.h>
#include <simdjson.h>

namespace pt2lint {

Expected<RenameMap> read_rename_map(const std::filesystem::path& path) {
  RenameMap out;
  simdjson::dom::parser parser;
  simdjson::dom::element root;
  if (auto error = parser.load(path.string()).get(root))
    return Status::error(fmt::format("cannot read '{}': {}", path.string(), simdjson::error_message(error)));
  simdjson::dom::object object;
  if (root.get(object)) return Status::error(fmt::format("'{}' is not a JSON object {{\"old.fqn\": \"new_name\"}}", path.string()));
  for (auto [key, value] : object) {
    std::string_view text;
    if (value.get(text))
      return Status::error(fmt::format("'{}': the value of \"{}\" is not a string", path.string(), std::string(key)));
    out[std::string(key)] = std::string(text);
  }
  return out;
}

}  // namespace pt2lint
