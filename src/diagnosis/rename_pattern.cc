#include "diagnosis/rename_pattern.h"

#include <fmt/format.h>

#include <vector>

namespace pt2lint::diagnosis {

std::string RenamePattern::apply(std::string_view name) const {
  if (!name.starts_with(dropped_prefix)) return {};
  std::string rest(name.substr(dropped_prefix.size()));
  if (dots_as_underscores)
    for (char& c : rest)
      if (c == '.') c = '_';
  return added_prefix + rest;
}

std::string RenamePattern::describe() const {
  std::vector<std::string> parts;
  if (!dropped_prefix.empty()) parts.push_back(fmt::format("the prefix `{}` dropped", dropped_prefix));
  if (!added_prefix.empty()) parts.push_back(fmt::format("the prefix `{}` added", added_prefix));
  if (dots_as_underscores) parts.push_back("dots written as underscores");
  std::string out;
  for (std::size_t i = 0; i < parts.size(); ++i) {
    if (i > 0) out += i + 1 == parts.size() ? " and " : ", ";
    out += parts[i];
  }
  return out;
}

std::optional<RenamePattern> infer_rename(std::string_view meant, std::string_view written) {
  if (meant == written || meant.empty() || written.empty()) return std::nullopt;
  // Candidate dropped prefixes: none, then each leading module path, shortest first.
  std::vector<std::string_view> dropped = {std::string_view{}};
  for (std::size_t dot = meant.find('.'); dot != std::string_view::npos; dot = meant.find('.', dot + 1))
    dropped.push_back(meant.substr(0, dot + 1));
  for (std::string_view drop : dropped) {
    for (bool underscores : {false, true}) {
      RenamePattern pattern{{}, underscores, std::string(drop)};
      std::string rest = pattern.apply(meant);
      if (underscores && rest == RenamePattern{{}, false, std::string(drop)}.apply(meant)) continue;
      if (!written.ends_with(rest)) continue;
      pattern.added_prefix = std::string(written.substr(0, written.size() - rest.size()));
      // A pattern must say something about the names: "everything was replaced" is not one.
      if (rest.empty()) continue;
      return pattern;
    }
  }
  return std::nullopt;
}

}  // namespace pt2lint::diagnosis
