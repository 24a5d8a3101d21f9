// libFuzzer target: arbitrary bytes as an --op-schemas file (the run-time schema parser).
#include <cstddef>
#include <cstdint>
#include <string_view>

#include "analysis/opschema/schema_catalog.h"

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) {
  pt2lint::opschema::SchemaCatalog catalog;
  catalog.add_text(std::string_view(reinterpret_cast<const char*>(data), size), "fuzz.txt");
  return 0;
}
