#include "support/temp_file.h"

#include <stdlib.h>
#include <unistd.h>

#include <cerrno>
#include <cstdlib>
#include <cstring>
#include <fstream>
#include <istream>
#include <ostream>
#include <system_error>
#include <vector>

namespace pt2lint {

TempFile::TempFile(std::string_view suffix) {
  const char* dir = std::getenv("TMPDIR");
  std::string pattern = (dir != nullptr && *dir != '\0') ? dir : "/tmp";
  pattern += "/pt2lint-XXXXXX";
  pattern += suffix;
  std::vector<char> name(pattern.begin(), pattern.end());
  name.push_back('\0');
  const int fd = mkstemps(name.data(), static_cast<int>(suffix.size()));
  if (fd < 0) {
    error_ = "cannot create a temporary file in " + pattern.substr(0, pattern.rfind('/')) +
             ": " + std::strerror(errno);
    return;
  }
  close(fd);
  path_ = name.data();
}

TempFile::~TempFile() {
  if (path_.empty()) return;
  std::error_code ignored;
  std::filesystem::remove(path_, ignored);
}

std::string copy_stream_to_file(std::istream& in, const std::filesystem::path& path,
                                std::uint64_t max_bytes, std::string_view already_read) {
  std::ofstream out(path, std::ios::binary | std::ios::trunc);
  if (!out) return "cannot write '" + path.string() + "'";
  out.write(already_read.data(), static_cast<std::streamsize>(already_read.size()));
  std::vector<char> chunk(std::size_t{1} << 20);
  std::uint64_t copied = already_read.size();
  while (in) {
    in.read(chunk.data(), static_cast<std::streamsize>(chunk.size()));
    copied += static_cast<std::uint64_t>(in.gcount());
    if (copied > max_bytes) {
      return "standard input holds more than " + std::to_string(max_bytes) +
             " bytes, the most 'check -' reads; pass the file's path instead";
    }
    out.write(chunk.data(), in.gcount());
  }
  if (in.bad()) return "cannot read standard input";
  out.close();
  if (!out) return "cannot write '" + path.string() + "'";
  return "";
}

std::string copy_file_to_stream(const std::filesystem::path& path, std::ostream& out) {
  std::ifstream in(path, std::ios::binary);
  if (!in) return "cannot read '" + path.string() + "'";
  std::vector<char> chunk(std::size_t{1} << 20);
  while (in) {
    in.read(chunk.data(), static_cast<std::streamsize>(chunk.size()));
    out.write(chunk.data(), in.gcount());
  }
  out.flush();
  if (!out) return "cannot write to standard output";
  return "";
}

}  // namespace pt2lint
