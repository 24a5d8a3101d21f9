#include "properties/golden_expectation.h"

#include <fmt/format.h>

namespace pt2lint::properties {
namespace {

// The most specific location present, in the order the golden runner looks.
std::string location_key(const Finding& f) {
  const Location& l = f.location;
  if (l.input_spec) return fmt::format("input_specs[{}]", *l.input_spec);
  if (l.output_spec) return fmt::format("output_specs[{}]", *l.output_spec);
  if (!l.node.empty()) return "node:" + l.node;
  if (!l.value.empty()) return "value:" + l.value;
  if (!f.state_fqn.empty()) return "state:" + f.state_fqn;
  if (!l.json_path.empty()) return "json:" + l.json_path;
  if (!l.archive_member.empty()) return "member:" + l.archive_member;
  return "-";
}

}  // namespace

std::string golden_expectation(const Finding& finding) {
  return fmt::format("{} {} {}", severity_name(finding.severity), finding.rule_name,
                     location_key(finding));
}

}  // namespace pt2lint::properties
