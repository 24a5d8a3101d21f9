// Finds a program JSON's top-level schema_version without converting the document, so a
// program of a schema major pt2lint does not read costs one finding and almost no work.
#pragma once

#include "io/readers/padded_bytes.h"

namespace pt2lint {

struct PeekedSchemaVersion {
  bool found = false;
  bool integer_form = false;  // `"schema_version": 2`, as the first releases wrote it
  long long major = 0;
  long long minor = 0;
};

// PyTorch writes schema_version after graph_module, so the key is looked for from the end.
// A candidate of the supported major is returned as found (the full read checks it again);
// any other candidate is confirmed by a structural parse of the top-level object, so text
// that merely looks like the key (inside a string, a nested map) is never taken for it.
PeekedSchemaVersion peek_schema_version(const PaddedBytes& json);

}  // namespace pt2lint
