// The schema files under src/analysis/opschema/bundled/, embedded at build time.
#pragma once

#include <span>
#include <string_view>

namespace pt2lint::opschema {

struct BundledSchemaFile {
  std::string_view name;  // "executorch_llama.txt"
  std::string_view text;
};

std::span<const BundledSchemaFile> bundled_schema_files();

}  // namespace pt2lint::opschema
