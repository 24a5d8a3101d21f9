// Expands the paths given on the command line into the files to check.
#pragma once

#include <filesystem>
#include <optional>
#include <string>
#include <string_view>
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

// `--shard I/N`: shard I (from 1) of N.
struct Shard {
  unsigned index = 1;
  unsigned count = 1;
};

// Parses "I/N" with 1 <= I <= N; nullopt otherwise.
std::optional<Shard> parse_shard(std::string_view text);

// Whether `path` belongs to `shard`. Decided by a hash of the path alone, never by its
// position in the list: every machine of a CI matrix computes the same split, and adding a
// file moves no other file to another shard.
bool in_shard(const std::filesystem::path& path, const Shard& shard);

}  // namespace pt2lint
