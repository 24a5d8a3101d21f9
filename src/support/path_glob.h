// Glob patterns for per-file-ignores, with the meaning ruff and .gitignore users expect.
#pragma once

#include <string_view>

namespace pt2lint {

// `*` and `?` match within one path component, `**` across components (`**/` also matches
// no folder at all), `[abc]`, `[a-z]` and `[!abc]` match one character. `path` uses '/'.
bool glob_match(std::string_view pattern, std::string_view path);

// A pattern without '/' names a file anywhere below (it is matched against the file name,
// as in .gitignore); one with '/' is matched against the whole relative path.
bool path_matches(std::string_view pattern, std::string_view relative_path);

}  // namespace pt2lint
