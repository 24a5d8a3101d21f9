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

std::string unwritable_target_reason(const std::filesystem::path& target) {
  struct stat st {};
  if (::lstat(target.c_str(), &st) != 0) return {};  // absent: it will be created
  if (S_ISREG(st.st_mode)) return {};
  const char* what = S_ISLNK(st.st_mode)   ? "a symbolic link"
                     : S_ISDIR(st.st_mode) ? "a folder"
                     : S_ISFIFO(st.st_mode) ? "a FIFO"
                     : S_ISCHR(st.st_mode) || S_ISBLK(st.st_mode) ? "a device"
                                                                  : "not a regular file";
  return fmt::format("'{}' is {}; pt2lint writes only regular files and never follows a link "
                     "or replaces anything else at its output",
                     target.string(), what);
}

AtomicFile::AtomicFile(std::filesystem::path target) : target_(std::move(target)) {
  if (error_ = unwritable_target_reason(target_); !error_.empty()) return;
  const std::filesystem::path folder =
      target_.parent_path().empty() ? std::filesystem::path(".") : target_.parent_path();
  // The temporary keeps the output's extension: readers of it (fix checks what it staged)
  // pick the format by extension.
  const std::string extension = target_.extension().string();
  std::string name_pattern = ".";
  name_pattern += target_.filename().string();
  name_pattern += ".pt2lint-XXXXXX";
  name_pattern += extension;
  const std::string pattern = (folder / name_pattern).string();
  std::vector<char> name(pattern.begin(), pattern.end());
  name.push_back('\0');
  fd_ = ::mkostemps(name.data(), static_cast<int>(extension.size()), O_CLOEXEC);
  if (fd_ < 0) {
    error_ = fmt::format("cannot create a temporary file in '{}' to write '{}': {}",
                         folder.string(), target_.string(), std::strerror(errno));
    return;
  }
  temporary_ = name.data();
}

AtomicFile::~AtomicFile() {
  if (fd_ >= 0) ::close(fd_);
  if (!committed_ && !temporary_.empty()) ::unlink(temporary_.c_str());
}

bool AtomicFile::commit() {
  if (fd_ < 0) return false;
  const auto fail = [&](std::string message) {
    error_ = std::move(message);
    ::close(fd_);
    fd_ = -1;
    ::unlink(temporary_.c_str());
    return false;
  };
  if (::fsync(fd_) != 0) {
    return fail(fmt::format("cannot write '{}': {}", target_.string(), std::strerror(errno)));
  }
  if (::close(fd_) != 0) {
    fd_ = -1;
    return fail(fmt::format("cannot write '{}': {}", target_.string(), std::strerror(errno)));
  }
  fd_ = -1;
  if (std::string reason = unwritable_target_reason(target_); !reason.empty()) {
    return fail(std::move(reason));
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
  return true;
}

std::string write_file_atomically(const std::filesystem::path& target, std::string_view bytes) {
  AtomicFile file(target);
  if (!file.ok()) return file.error();
  std::size_t done = 0;
  while (done < bytes.size()) {
    const ssize_t n = ::write(file.fd(), bytes.data() + done, bytes.size() - done);
    if (n < 0 && errno == EINTR) continue;
    if (n <= 0) {
      return fmt::format("cannot write '{}': {}", target.string(),
                         n < 0 ? std::strerror(errno) : "no space");
    }
    done += static_cast<std::size_t>(n);
  }
  if (!file.commit()) return file.error();
  return {};
}

}  // namespace pt2lint
