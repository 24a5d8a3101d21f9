#include "support/bounded_file.h"

#include <fcntl.h>
#include <sys/stat.h>
#include <unistd.h>

#include <cerrno>
#include <cstring>

#include <fmt/format.h>

namespace pt2lint {

Expected<std::string> read_regular_file(const std::filesystem::path& path, std::uint64_t max_bytes) {
  const int fd = ::open(path.c_str(), O_RDONLY | O_NONBLOCK | O_CLOEXEC | O_NOCTTY);
  if (fd < 0) return Status::error(fmt::format("cannot open it ({})", std::strerror(errno)));
  struct stat st {};
  Status refused;
  if (::fstat(fd, &st) != 0) {
    refused = Status::error(fmt::format("cannot read it ({})", std::strerror(errno)));
  } else if (!S_ISREG(st.st_mode)) {
    refused = Status::error(
        "it is not a regular file (a device, FIFO, socket or folder), so it is not read");
  } else if (static_cast<std::uint64_t>(st.st_size) > max_bytes) {
    refused = Status::error(
        fmt::format("it is {} bytes, more than the limit of {} bytes", st.st_size, max_bytes));
  }
  std::string out;
  if (refused.ok()) {
    out.assign(static_cast<std::size_t>(st.st_size), '\0');
    std::size_t done = 0;
    while (done < out.size()) {
      const ssize_t n = ::read(fd, out.data() + done, out.size() - done);
      if (n < 0 && errno == EINTR) continue;
      if (n <= 0) break;
      done += static_cast<std::size_t>(n);
    }
    out.resize(done);  // a file that shrank while read is read as it now is
  }
  ::close(fd);
  if (!refused.ok()) return refused;
  return out;
}

bool lies_inside(const std::filesystem::path& path, const std::filesystem::path& folder) {
  std::error_code ec;
  const std::filesystem::path resolved = std::filesystem::weakly_canonical(path, ec);
  if (ec) return false;
  const std::filesystem::path root = std::filesystem::weakly_canonical(folder, ec);
  if (ec) return false;
  auto r = root.begin();
  auto p = resolved.begin();
  for (; r != root.end(); ++r, ++p) {
    if (r->empty()) continue;  // a trailing separator
    if (p == resolved.end() || *p != *r) return false;
  }
  return true;
}

}  // namespace pt2lint
