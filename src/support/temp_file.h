// Files in $TMPDIR that vanish with their owner: `check -` saves stdin to one so that the
// loaders, which read files, see it unchanged; `lower -o -` writes the lowered program to one
// (the archive writer seeks) and then copies it to stdout.
#pragma once

#include <cstdint>
#include <filesystem>
#include <iosfwd>
#include <string>
#include <string_view>

namespace pt2lint {

class TempFile {
 public:
  // Creates an empty file whose name ends in `suffix` (the loaders pick the textproto reader
  // by extension). On failure path() is empty and error() says why.
  explicit TempFile(std::string_view suffix);
  ~TempFile();
  TempFile(const TempFile&) = delete;
  TempFile& operator=(const TempFile&) = delete;

  const std::filesystem::path& path() const { return path_; }
  const std::string& error() const { return error_; }

 private:
  std::filesystem::path path_;
  std::string error_;
};

// The most `check -` copies from standard input: the largest program JSON pt2lint reads is
// 1 GiB; a file beyond this is read from its path instead of filling $TMPDIR.
inline constexpr std::uint64_t kMaxStandardInputBytes = std::uint64_t{2} << 30;

// Copies `already_read` (bytes taken from `in` before, e.g. to look at them) and then all of
// `in` (binary) into the file at `path`, stopping with an error past `max_bytes`. Returns ""
// or what went wrong.
std::string copy_stream_to_file(std::istream& in, const std::filesystem::path& path,
                                std::uint64_t max_bytes = kMaxStandardInputBytes,
                                std::string_view already_read = {});
// Copies the file at `path` to `out` (binary). Returns "" or what went wrong.
std::string copy_file_to_stream(const std::filesystem::path& path, std::ostream& out);

}  // namespace pt2lint
