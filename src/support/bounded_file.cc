#include "support/bounded_file.h"

#include <fcntl.h>
#include <sys/stat.h>
#include <unistd.h>

#include <cerrno>
#include <cstring>

#include <fmt/format.h>

namespace pt2lint {

bool read_regular_file(const std::filesystem::path& path, std::uint64_t max_bytes,
                       std::string& out, std::string& error) {
  const int fd = ::open(path.c_str(), O_RDONLY | O_NONBLOCK | O_CLOEXEC | O_NOCTTY);
  if (fd < 0) {
    error = fmt::format("cannot open it ({})", std::strerror(errno));
    return false;
  }
  struct stat st {};
  bool ok = ::fstat(fd, &st) == 0;
  if (!ok) {
    error = fmt::format("cannot read it ({})", std::strerror(errno));
  } else if (!S_ISREG(st.st_mode)) {
    error = "it is not a regular file (a device, FIFO, socket or folder), so it is not read";
    ok = false;
  } else if (static_cast<std::uint64_t>(st.st_size) > max_bytes) {
    error = fmt::format("it is {} bytes, more than the limit of {} bytes", st.st_size, max_bytes);
    ok = false;
  }
  if (ok) {
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
  return ok;
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
