// Expands the paths given on the command line into the files to check.
#pragma once

#include <filesystem>
#include <functional>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include "engine/walk_filter.h"

namespace pt2lint {

struct DiscoveredFile {
  std::filesystem::path path;
  bool found_by_folder_walk = false;
  std::size_t given = 0;  // the index of the command-line path it came from
  std::vector<std::size_t> also_given;  // later paths that reached it again
};

// What a walk of the folder `root` (absolute) skips; without one, the defaults.
using ExclusionsFor = std::function<WalkExclusions(const std::filesystem::path& root)>;

// Files are kept as given; folders are walked recursively for .pt2, .json, .textproto and
// .pbtxt files, in sorted order, skipping what `exclusions_for` excludes (folders are not
// entered). A file reached twice (named twice, or named and inside a walked folder) is listed
// once, where it first came. Paths that do not exist are returned in `missing`.
std::vector<DiscoveredFile> discover_files(const std::vector<std::string>& paths,
                                           std::vector<std::string>& missing,
                                           const ExclusionsFor& exclusions_for = {});

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
