#include "support/atomic_file.h"

#include <fcntl.h>
#include <stdlib.h>
#include <sys/stat.h>
#include <unistd.h>

#include <cerrno>
#include <cstring>
#include <vector>

#include <fmt/format.h>

namespace pt2lint {
namespace {

// The permissions a new file gets from open(2) with mode 0666: mkstemp makes 0600.
mode_t default_mode() {
  const mode_t mask = ::umask(0);
  ::umask(mask);
  return 0666 & ~mask;
}

}  // namespace

Status check_writable_target(const std::filesystem::path& target) {
  struct stat st {};
  if (::lstat(target.c_str(), &st) != 0) return {};  // absent: it will be created
  if (S_ISREG(st.st_mode)) return {};
  const char* what = S_ISLNK(st.st_mode)   ? "a symbolic link"
                     : S_ISDIR(st.st_mode) ? "a folder"
                     : S_ISFIFO(st.st_mode) ? "a FIFO"
                     : S_ISCHR(st.st_mode) || S_ISBLK(st.st_mode) ? "a device"
                                                                  : "not a regular file";
  return Status::error(fmt::format("'{}' is {}; pt2lint writes only regular files and never "
                                   "follows a link or replaces anything else at its output",
                                   target.string(), what));
}

Expected<AtomicFile> AtomicFile::create(std::filesystem::path target) {
  if (Status writable = check_writable_target(target); !writable.ok()) return writable;
  AtomicFile file(std::move(target));
  const std::filesystem::path& output = file.target_;
  const std::filesystem::path folder =
      output.parent_path().empty() ? std::filesystem::path(".") : output.parent_path();
  // The temporary keeps the output's extension: readers of it (fix checks what it staged)
  // pick the format by extension.
  const std::string extension = output.extension().string();
  std::string name_pattern = ".";
  name_pattern += output.filename().string();
  name_pattern += ".pt2lint-XXXXXX";
  name_pattern += extension;
  const std::string pattern = (folder / name_pattern).string();
  std::vector<char> name(pattern.begin(), pattern.end());
  name.push_back('\0');
  file.fd_ = ::mkostemps(name.data(), static_cast<int>(extension.size()), O_CLOEXEC);
  if (file.fd_ < 0) {
    return Status::error(fmt::format("cannot create a temporary file in '{}' to write '{}': {}",
                                     folder.string(), output.string(), std::strerror(errno)));
  }
  file.temporary_ = name.data();
  return file;
}

AtomicFile::AtomicFile(AtomicFile&& other) noexcept
    : target_(std::move(other.target_)),
      temporary_(std::move(other.temporary_)),
      fd_(other.fd_),
      committed_(other.committed_) {
  other.fd_ = -1;
  other.temporary_.clear();  // the moved-from object removes nothing
}

AtomicFile::~AtomicFile() {
  if (fd_ >= 0) ::close(fd_);
  if (!committed_ && !temporary_.empty()) ::unlink(temporary_.c_str());
}

Status AtomicFile::commit() {
  // Only after a failed commit(), which said why.
  if (fd_ < 0) return Status::error(fmt::format("cannot write '{}'", target_.string()));
  const auto fail = [&](std::string message) {
    ::close(fd_);
    fd_ = -1;
    ::unlink(temporary_.c_str());
    return Status::error(std::move(message));
  };
  if (::fsync(fd_) != 0) {
    return fail(fmt::format("cannot write '{}': {}", target_.string(), std::strerror(errno)));
  }
  if (::close(fd_) != 0) {
    fd_ = -1;
    return fail(fmt::format("cannot write '{}': {}", target_.string(), std::strerror(errno)));
  }
  fd_ = -1;
  if (Status writable = check_writable_target(target_); !writable.ok()) {
    return fail(writable.message());
  }
  // An existing output keeps its permissions; a new one gets what open(2) would give it
  // (mkstemp made the temporary 0600). By name: a caller may have replaced the temporary.
  struct stat st {};
  const mode_t mode = ::lstat(target_.c_str(), &st) == 0 ? (st.st_mode & 07777) : default_mode();
  (void)::chmod(temporary_.c_str(), mode);
  if (::rename(temporary_.c_str(), target_.c_str()) != 0) {
    return fail(fmt::format("cannot write '{}': {}", target_.string(), std::strerror(errno)));
  }
  committed_ = true;
  return {};
}

Status write_file_atomically(const std::filesystem::path& target, std::string_view bytes) {
  Expected<AtomicFile> created = AtomicFile::create(target);
  if (!created.ok()) return created.status();
  AtomicFile& file = created.value();
  std::size_t done = 0;
  while (done < bytes.size()) {
    const ssize_t n = ::write(file.fd(), bytes.data() + done, bytes.size() - done);
    if (n < 0 && errno == EINTR) continue;
    if (n <= 0) {
      return Status::error(fmt::format("cannot write '{}': {}", target.string(),
                                       n < 0 ? std::strerror(errno) : "no space"));
    }
    done += static_cast<std::size_t>(n);
  }
  return file.commit();
}

}  // namespace pt2lint
