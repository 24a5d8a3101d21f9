// A finding as a golden's `# expect:` line states it, "SEVERITY RULE LOCATION", with the
// location key of tests/golden/run_golden.py (location_key): what `pt2lint reduce` writes
// into a regression golden and what tests compare against one.
#pragma once

#include <string>

#include "core/finding.h"

namespace pt2lint::properties {

std::string golden_expectation(const Finding& finding);

}  // namespace pt2lint::properties
