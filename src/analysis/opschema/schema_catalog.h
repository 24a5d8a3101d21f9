// Operator schemas known beyond the generated ATen table: custom ops declared by the user
// (`--op-schemas FILE`, config key `op-schemas`) and the bundled schema files of common
// libraries' mutating custom ops (src/analysis/opschema/bundled/*.txt).
//
// Lookup order (NodeOps): the generated table, then the user's catalog, then the bundled one.
#pragma once

#include <filesystem>
#include <map>
#include <memory>
#include <optional>
#include <string>
#include <string_view>
#include <utility>
#include <vector>

#include "analysis/opschema/op_schema.h"
#include "analysis/opschema/schema_parser.h"

namespace pt2lint::opschema {

class SchemaCatalog {
 public:
  struct Entry {
    ParsedSchema schema;
    std::string source;  // "schemas.txt:3", "bundled executorch_llama.txt"
  };

  // Adds every schema of a file's text: one per line, `#` starts a comment, blank lines are
  // skipped. Returns one message per rejected line ("FILE:LINE: ..."); the rest are kept.
  std::vector<std::string> add_text(std::string_view text, std::string_view source_name);
  // Reads and adds a file; an unreadable file is one message.
  std::vector<std::string> add_file(const std::filesystem::path& path);

  std::optional<OpSchema> find(std::string_view name, std::string_view overload) const;
  const Entry* entry(std::string_view name, std::string_view overload) const;
  // Every schema of namespace `ns` ("triton" for user Triton kernels), in file order.
  std::vector<OpSchema> in_namespace(std::string_view ns) const;
  bool empty() const { return entries_.empty(); }
  std::size_t size() const { return entries_.size(); }

 private:
  std::vector<std::unique_ptr<Entry>> entries_;  // stable addresses for OpSchema views
  static std::string key(std::string_view name, std::string_view overload);
  std::map<std::string, std::size_t, std::less<>> by_name_;  // by key()
};

// The bundled schema files, parsed on first use (only when a target is missing from the
// ATen table, so start-up never pays for them) and shared read-only.
const SchemaCatalog& bundled_schemas();

// Where a schema comes from, for messages: the table, the user's catalog or the bundle.
struct SchemaLookup {
  std::optional<OpSchema> schema;
  std::string_view source;  // "" for the ATen table
};
SchemaLookup lookup_schema(const OperatorName& op, const SchemaCatalog* user);

}  // namespace pt2lint::opschema
