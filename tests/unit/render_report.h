// A report rendered in one format with default options, as a string: what the report unit tests
// compare against.
#pragma once

#include <sstream>
#include <string>
#include <string_view>

#include "reports/formats.h"

namespace pt2lint {

inline std::string render_report(std::string_view format, const RunReport& report) {
  std::ostringstream out;
  make_renderer(format)->render(report, RenderOptions{}, out);
  return out.str();
}

}  // namespace pt2lint
