// One renaming pattern that explains why a pass wrote `written` where `meant` was meant:
// a prefix added (`lifted_buf_`), dots written as underscores, a leading module path dropped.
// The diagnosis infers the pattern of every wrong target and reports one mapping when they
// all follow the same one.
#pragma once

#include <optional>
#include <string>
#include <string_view>

namespace pt2lint::diagnosis {

struct RenamePattern {
  std::string added_prefix;      // "lifted_buf_"
  bool dots_as_underscores = false;
  std::string dropped_prefix;    // "model." when `model.layers.0.k` became `layers.0.k`

  bool operator==(const RenamePattern&) const = default;
  std::string apply(std::string_view name) const;
  // "the prefix `lifted_buf_` added and dots written as underscores".
  std::string describe() const;
};

// The simplest pattern that turns `meant` into `written`, or nullopt (none, or they are equal).
std::optional<RenamePattern> infer_rename(std::string_view meant, std::string_view written);

}  // namespace pt2lint::diagnosis
