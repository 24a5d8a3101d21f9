// Expands the paths given on the command line into the files to check.
#pragma once

#include <filesystem>
#include <string>
#include <vector>

namespace pt2lint {

struct DiscoveredFile {
  std::filesystem::path path;
  bool found_by_folder_walk = false;
};

// Files are kept as given; folders are walked recursively for .pt2, .json, .textproto and
// .pbtxt files, in sorted order. Paths that do not exist are returned in `missing`.
std::vector<DiscoveredFile> discover_files(const std::vector<std::string>& paths,
                                           std::vector<std::string>& missing);

}  // namespace pt2lint
