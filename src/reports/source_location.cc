#include "reports/source_location.h"

#include <charconv>
#include <filesystem>

namespace pt2lint {
namespace {

std::string_view trim(std::string_view text) {
  while (!text.empty() && (text.front() == ' ' || text.front() == '\t')) text.remove_prefix(1);
  while (!text.empty() && (text.back() == ' ' || text.back() == '\t' || text.back() == '\r'))
    text.remove_suffix(1);
  return text;
}

// Parses `File "<path>", line <n>, in <fn>`; false for any other line.
bool parse_frame_line(std::string_view line, StackFrame& frame) {
  line = trim(line);
  constexpr std::string_view kFile = "File \"";
  if (line.substr(0, kFile.size()) != kFile) return false;
  line.remove_prefix(kFile.size());
  constexpr std::string_view kLine = "\", line ";
  std::size_t end = line.find(kLine);
  if (end == std::string_view::npos) return false;
  frame.file = std::string(line.substr(0, end));
  line.remove_prefix(end + kLine.size());
  auto [next, error] = std::from_chars(line.data(), line.data() + line.size(), frame.line);
  if (error != std::errc() || frame.line < 1) return false;
  line.remove_prefix(static_cast<std::size_t>(next - line.data()));
  constexpr std::string_view kIn = ", in ";
  if (line.substr(0, kIn.size()) == kIn) frame.function = std::string(line.substr(kIn.size()));
  return true;
}

bool is_torch_internal(std::string_view file) {
  if (file.empty() || file.front() == '<') return true;
  for (std::string_view packages : {"site-packages/torch/", "dist-packages/torch/"}) {
    if (file.find(packages) != std::string_view::npos) return true;
  }
  return false;
}

bool is_installed_package(std::string_view file) {
  return file.find("site-packages/") != std::string_view::npos ||
         file.find("dist-packages/") != std::string_view::npos;
}

}  // namespace

std::vector<StackFrame> parse_stack_trace(std::string_view trace) {
  std::vector<StackFrame> frames;
  while (!trace.empty()) {
    std::size_t newline = trace.find('\n');
    std::string_view line = trace.substr(0, newline);
    trace = newline == std::string_view::npos ? std::string_view() : trace.substr(newline + 1);
    StackFrame frame;
    if (parse_frame_line(line, frame)) {
      frames.push_back(std::move(frame));
    } else if (!frames.empty() && frames.back().code.empty()) {
      frames.back().code = std::string(trim(line));
    }
  }
  return frames;
}

std::optional<std::string> relative_to_root(std::string_view path, std::string_view source_root) {
  namespace fs = std::filesystem;
  fs::path file = fs::path(path).lexically_normal();
  if (file.empty()) return std::nullopt;
  if (file.is_relative()) {
    std::string text = file.generic_string();
    // A relative path that climbs out of the tree is as foreign as an absolute one.
    if (text == ".." || text.compare(0, 3, "../") == 0) return std::nullopt;
    return text;
  }
  if (source_root.empty()) return std::nullopt;
  fs::path root = fs::path(source_root).lexically_normal();
  if (root.is_relative()) root = (fs::current_path() / root).lexically_normal();
  fs::path relative = file.lexically_relative(root);
  std::string text = relative.generic_string();
  if (relative.empty() || text == "." || text == ".." || text.compare(0, 3, "../") == 0)
    return std::nullopt;
  return text;
}

std::optional<SourceLocation> user_source_location(std::string_view trace,
                                                   std::string_view source_root) {
  std::vector<StackFrame> frames = parse_stack_trace(trace);
  for (auto it = frames.rbegin(); it != frames.rend(); ++it) {
    if (is_torch_internal(it->file)) continue;
    if (auto path = relative_to_root(it->file, source_root)) {
      return SourceLocation{std::move(*path), it->line, it->code};
    }
  }
  return std::nullopt;
}

}  // namespace pt2lint

namespace pt2lint {

std::optional<StackFrame> user_frame(std::string_view trace, std::string_view source_root) {
  std::vector<StackFrame> frames = parse_stack_trace(trace);
  if (!source_root.empty()) {
    for (auto it = frames.rbegin(); it != frames.rend(); ++it) {
      if (is_torch_internal(it->file) || std::filesystem::path(it->file).is_relative()) continue;
      if (auto path = relative_to_root(it->file, source_root)) {
        StackFrame frame = *it;
        frame.file = std::move(*path);
        return frame;
      }
    }
  }
  for (auto it = frames.rbegin(); it != frames.rend(); ++it)
    if (!is_torch_internal(it->file) && !is_installed_package(it->file)) return *it;
  for (auto it = frames.rbegin(); it != frames.rend(); ++it)
    if (!is_torch_internal(it->file)) return *it;
  return std::nullopt;
}

}  // namespace pt2lint
