#include "engine/file_discovery.h"

#include <algorithm>
#include <charconv>
#include <cstdint>
#include <memory>
#include <map>
#include <system_error>

namespace pt2lint {
namespace {

bool has_program_extension(const std::filesystem::path& path) {
  const std::string ext = path.extension().string();
  return ext == ".pt2" || ext == ".json" || ext == ".textproto" || ext == ".pbtxt";
}

// The program files below `root`, sorted, without what `exclusions` skip. Symlinked folders
// are not followed: a walk must terminate and stay inside the tree.
std::vector<std::filesystem::path> walk_folder(const std::filesystem::path& root,
                                               const WalkExclusions& exclusions) {
  namespace fs = std::filesystem;
  using Rules = std::shared_ptr<const std::vector<GitignoreRule>>;
  std::error_code error;
  const fs::path absolute_root = fs::absolute(root, error).lexically_normal();
  auto inherited = std::make_shared<std::vector<GitignoreRule>>();
  const fs::path top = exclusions.respect_gitignore ? git_work_tree(absolute_root) : fs::path();
  const bool in_git = !top.empty();
  if (in_git) {
    // The .gitignore files from the work tree's top down to above the walked folder.
    std::vector<fs::path> above;
    for (fs::path at = absolute_root; at != top && at.has_relative_path(); at = at.parent_path())
      above.push_back(at.parent_path());
    for (auto it = above.rbegin(); it != above.rend(); ++it) read_gitignore(*it, *inherited);
  }
  struct Pending {
    fs::path folder, absolute;
    Rules rules;  // the gitignore rules of the folders above
  };
  std::vector<fs::path> found;
  std::vector<Pending> pending{{root, absolute_root, inherited}};
  while (!pending.empty()) {
    Pending at = std::move(pending.back());
    pending.pop_back();
    Rules rules = at.rules;
    if (in_git && fs::is_regular_file(at.absolute / ".gitignore", error)) {
      auto own = std::make_shared<std::vector<GitignoreRule>>(*rules);
      read_gitignore(at.absolute, *own);
      rules = own;
    }
    auto options = fs::directory_options::skip_permission_denied;
    for (auto it = fs::directory_iterator(at.folder, options, error);
         !error && it != fs::directory_iterator(); it.increment(error)) {
      const fs::path absolute = at.absolute / it->path().filename();
      if (it->is_directory(error) && !it->is_symlink(error)) {
        if (!excluded(absolute, true, exclusions, *rules))
          pending.push_back({it->path(), absolute, rules});
      } else if (it->is_regular_file(error) && has_program_extension(it->path()) &&
                 !excluded(absolute, false, exclusions, *rules)) {
        found.push_back(it->path());
      }
    }
    error.clear();
  }
  std::sort(found.begin(), found.end());
  return found;
}

}  // namespace

std::vector<DiscoveredFile> discover_files(const std::vector<std::string>& paths,
                                           std::vector<std::string>& missing,
                                           const ExclusionsFor& exclusions_for) {
  namespace fs = std::filesystem;
  std::vector<DiscoveredFile> files;
  // By canonical path: a file reached twice is checked once, where it first came.
  std::map<fs::path, std::size_t> seen;
  auto first_time = [&seen, &files](const fs::path& path, std::size_t given) {
    std::error_code error;
    fs::path key = fs::weakly_canonical(fs::absolute(path, error), error);
    if (error) key = path.lexically_normal();
    auto [at, added] = seen.emplace(key, files.size());
    if (!added) files[at->second].also_given.push_back(given);
    return added;
  };
  for (std::size_t given = 0; given < paths.size(); ++given) {
    fs::path path(paths[given]);
    std::error_code error;
    if (fs::is_directory(path, error)) {
      fs::path absolute = fs::absolute(path, error).lexically_normal();
      WalkExclusions exclusions;
      if (exclusions_for) {
        exclusions = exclusions_for(absolute);
      } else {
        exclusions.patterns = exclusion_patterns(nullptr, {});
      }
      if (exclusions.base.empty()) exclusions.base = absolute;
      for (fs::path& p : walk_folder(path, exclusions))
        if (first_time(p, given)) files.push_back({std::move(p), true, given, {}});
    } else if (fs::exists(path, error)) {
      if (first_time(path, given)) files.push_back({path, false, given, {}});
    } else {
      missing.push_back(paths[given]);
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
