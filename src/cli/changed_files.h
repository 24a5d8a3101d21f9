// `check --changed-files FILE`: the files a pull request changed, one repository-relative
// path per line as `git diff --name-only BASE...HEAD` prints them. The review formats then
// anchor a finding at its export script's line only when the script is one of them
// (RenderOptions::changed_files).
#pragma once

#include <optional>
#include <set>
#include <string>

namespace pt2lint {

// The paths of `file`, normalised as report paths are ('/' separated, no "./"); a line git
// quoted ("dir/caf\303\251.py", core.quotePath) is unquoted. Prints the error on stderr and
// returns nullopt when the file cannot be read.
std::optional<std::set<std::string>> read_changed_files(const std::string& file);

}  // namespace pt2lint
