#include "cli/changed_files.h"

#include <filesystem>
#include <string_view>

#include "cli/terminal.h"
#include "support/bounded_file.h"

namespace pt2lint {
namespace {

// A list of changed paths is a few kilobytes; a file far larger is not one.
constexpr std::uint64_t kMaxChangedFilesBytes = 64ull << 20;

// git's C-style quoting of a path with unusual bytes: "a\"b", "\t", "\303\251" (octal).
std::string unquote_git_path(std::string_view quoted) {
  std::string_view inner = quoted.substr(1, quoted.size() - 2);
  auto is_octal = [](char c) { return c >= '0' && c <= '7'; };
  std::string path;
  for (std::size_t i = 0; i < inner.size(); ++i) {
    if (inner[i] != '\\' || i + 1 == inner.size()) {
      path += inner[i];
      continue;
    }
    char next = inner[++i];
    if (i + 2 < inner.size() && is_octal(next) && is_octal(inner[i + 1]) && is_octal(inner[i + 2])) {
      path += static_cast<char>(((next - '0') << 6) | ((inner[i + 1] - '0') << 3) | (inner[i + 2] - '0'));
      i += 2;
    } else if (next == 'n') {
      path += '\n';
    } else if (next == 't') {
      path += '\t';
    } else {
      path += next;  // \" and \\ stand for themselves
    }
  }
  return path;
}

}  // namespace

std::optional<std::set<std::string>> read_changed_files(const std::string& file) {
  Expected<std::string> text = read_regular_file(file, kMaxChangedFilesBytes);
  if (!text.ok()) {
    print_error("--changed-files '" + file + "': " + text.message());
    return std::nullopt;
  }
  std::set<std::string> paths;
  std::string_view rest = text.value();
  while (!rest.empty()) {
    std::size_t end = rest.find('\n');
    std::string_view line = rest.substr(0, end);
    rest = end == std::string_view::npos ? std::string_view() : rest.substr(end + 1);
    if (!line.empty() && line.back() == '\r') line.remove_suffix(1);
    if (line.empty()) continue;
    std::string path = line.size() >= 2 && line.front() == '"' && line.back() == '"'
                           ? unquote_git_path(line)
                           : std::string(line);
    paths.insert(std::filesystem::path(path).lexically_normal().generic_string());
  }
  return paths;
}

}  // namespace pt2lint
