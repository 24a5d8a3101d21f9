// What decided each edit of a repair: safe (dataflow, the layout, or every source agreeing;
// applied by default) or unsafe (name similarity only; applied only with `fix --unsafe-fixes`),
// and the evidence in words (docs/fix.md, "Safe and unsafe edits").
#pragma once

#include <map>
#include <string>

namespace pt2lint::diagnosis {

struct EditLabel {
  bool safe = true;
  std::string proof{};
};

using EditLabels = std::map<int, EditLabel>;  // by SignatureEdit::sequence

}  // namespace pt2lint::diagnosis
