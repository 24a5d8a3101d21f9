#include "engine/file_discovery.h"

#include <algorithm>
#include <charconv>
#include <cstdint>
#include <system_error>

namespace pt2lint {
namespace {

bool has_program_extension(const std::filesystem::path& path) {
  const std::string ext = path.extension().string();
  return ext == ".pt2" || ext == ".json" || ext == ".textproto" || ext == ".pbtxt";
}

}  // namespace

std::vector<DiscoveredFile> discover_files(const std::vector<std::string>& paths,
                                           std::vector<std::string>& missing) {
  std::vector<DiscoveredFile> files;
  for (const std::string& text : paths) {
    std::filesystem::path path(text);
    std::error_code error;
    if (std::filesystem::is_directory(path, error)) {
      std::vector<std::filesystem::path> found;
      // Symlinked folders are not followed: a walk must terminate and stay inside the tree.
      auto options = std::filesystem::directory_options::skip_permission_denied;
      for (auto it = std::filesystem::recursive_directory_iterator(path, options, error);
           !error && it != std::filesystem::recursive_directory_iterator(); it.increment(error)) {
        if (it->is_regular_file(error) && has_program_extension(it->path()))
          found.push_back(it->path());
      }
      std::sort(found.begin(), found.end());
      for (auto& p : found) files.push_back({std::move(p), true});
    } else if (std::filesystem::exists(path, error)) {
      files.push_back({path, false});
    } else {
      missing.push_back(text);
    }
  }
  return files;
}

std::optional<Shard> parse_shard(std::string_view text) {
  std::size_t slash = text.find('/');
  if (slash == std::string_view::npos) return std::nullopt;
  Shard shard;
  auto parse = [](std::string_view digits, unsigned& value) {
    auto [end, error] = std::from_chars(digits.data(), digits.data() + digits.size(), value);
    return error == std::errc() && end == digits.data() + digits.size();
  };
  if (!parse(text.substr(0, slash), shard.index) || !parse(text.substr(slash + 1), shard.count))
    return std::nullopt;
  if (shard.count == 0 || shard.index == 0 || shard.index > shard.count) return std::nullopt;
  return shard;
}

bool in_shard(const std::filesystem::path& path, const Shard& shard) {
  // FNV-1a of the normalised path: stable across machines, runs and standard libraries
  // (std::hash promises none of that).
  std::uint64_t hash = 0xcbf29ce484222325ULL;
  for (unsigned char c : path.lexically_normal().generic_string()) {
    hash ^= c;
    hash *= 0x100000001b3ULL;
  }
  return hash % shard.count == shard.index - 1;
}

}  // namespace pt2lint
