#include "verifier/file_discovery.h"

#include <algorithm>
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

}  // namespace pt2lint
