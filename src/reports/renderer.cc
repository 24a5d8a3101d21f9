#include "reports/renderer.h"

#include <fmt/format.h>

namespace pt2lint {

std::string describe_location(const Location& location) {
  std::string text;
  auto add = [&text](const std::string& part) {
    if (!text.empty()) text += ", ";
    text += part;
  };
  if (location.input_spec) add(fmt::format("input_specs[{}]", *location.input_spec));
  if (location.output_spec) add(fmt::format("output_specs[{}]", *location.output_spec));
  if (!location.node.empty()) add("node " + location.node);
  if (!location.value.empty()) add("value " + location.value);
  if (!location.json_path.empty()) add(location.json_path);
  if (!location.archive_member.empty()) add("member " + location.archive_member);
  return text;
}

}  // namespace pt2lint
