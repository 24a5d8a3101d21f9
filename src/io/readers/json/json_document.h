// Opening a JSON document and walking an object's fields with simdjson's on-demand API, for
// the readers that look at a document without converting it (schema_version_peek.cc, the top
// level key check of json_to_proto.cc) and for the reader itself.
#pragma once

#include <cstddef>
#include <string_view>
#include <utility>

#include <simdjson.h>

#include "io/readers/padded_bytes.h"

namespace pt2lint::json_reader {

// The length of a UTF-8 byte order mark at the start of `json` (0 or 3). It is not JSON, but
// some editors add one.
inline std::size_t bom_length(const PaddedBytes& json) {
  return json.view().substr(0, 3) == "\xEF\xBB\xBF" ? 3 : 0;
}

// Starts `parser` on `json`, past a byte order mark.
inline simdjson::simdjson_result<simdjson::ondemand::document> iterate_document(
    simdjson::ondemand::parser& parser, const PaddedBytes& json) {
  const std::size_t skip = bom_length(json);
  return parser.iterate(json.data() + skip, json.size() - skip, json.capacity() - skip);
}

// The document's top-level object; false when the document is not JSON or not an object.
inline bool open_root_object(simdjson::ondemand::parser& parser, const PaddedBytes& json,
                             simdjson::ondemand::document& doc,
                             simdjson::ondemand::object& root) {
  return !iterate_document(parser, json).get(doc) && !doc.get_object().get(root);
}

// Calls visit(key, field) for each field of `object` in order, with its key unescaped, while
// visit returns true. False when a field or key cannot be read.
template <typename Visit>
bool for_each_field(simdjson::ondemand::object& object, Visit&& visit) {
  for (auto result : object) {
    simdjson::ondemand::field field;
    std::string_view key;
    if (std::move(result).get(field) || field.unescaped_key().get(key)) return false;
    if (!visit(key, field)) return true;
  }
  return true;
}

}  // namespace pt2lint::json_reader
