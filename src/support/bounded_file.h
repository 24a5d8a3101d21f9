// Reads a file named by untrusted input (a config from a pull request, a path it lists): only
// a regular file, at most `max_bytes`, opened so that a FIFO cannot block the read and a
// device (/dev/zero) or /proc file is refused before a byte is read.
#pragma once

#include <cstdint>
#include <filesystem>
#include <string>

#include "support/status.h"

namespace pt2lint {

// The file's bytes. Fails (the message names no path: the caller names the file) when the
// file cannot be opened, is not a regular file, or is larger than `max_bytes`.
Expected<std::string> read_regular_file(const std::filesystem::path& path, std::uint64_t max_bytes);

// Whether `path`, with every link resolved, lies inside `folder` (also resolved). A path that
// does not exist yet is resolved as far as it exists.
bool lies_inside(const std::filesystem::path& path, const std::filesystem::path& folder);

}  // namespace pt2lint
