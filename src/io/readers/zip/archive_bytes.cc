#include "io/readers/zip/archive_bytes.h"

#include <fcntl.h>
#include <sys/stat.h>
#include <unistd.h>

#include <algorithm>
#include <cerrno>
#include <cstring>
#include <optional>
#include <system_error>

#include "support/other_core_thread.h"

namespace pt2lint {
namespace {

// Holds a small archive's whole central directory; a local header read costs one window.
constexpr std::size_t kWindow = std::size_t{16} << 10;

// minizip reads headers one byte at a time: those skip the call to memcpy.
void copy_bytes(char* out, const char* from, std::size_t n) {
  if (n == 1) {
    *out = *from;
  } else {
    std::memcpy(out, from, n);
  }
}

// Reads what it can of [at, at + n) into out: the count, short only at the end of the file or
// on an error.
std::size_t pread_fully(int fd, char* out, std::size_t n, off_t at) {
  std::size_t done = 0;
  while (done < n) {
    const ssize_t got = ::pread(fd, out + done, n - done, at + static_cast<off_t>(done));
    if (got < 0 && errno == EINTR) continue;
    if (got <= 0) break;
    done += static_cast<std::size_t>(got);
  }
  return done;
}

// From here up a read is split in two halves, the second read on another thread. Most of a
// large read's time is the kernel faulting in and filling the destination's pages, which two
// cores do side by side: a 143 MB program JSON (4,096 layers) reads in about half the time,
// and the program's parse, which waits for it, starts that much sooner (docs/performance.md).
constexpr std::size_t kSplitRead = std::size_t{16} << 20;

std::size_t pread_large(int fd, char* out, std::size_t n, off_t at) {
  if (n < kSplitRead) return pread_fully(fd, out, n, at);
  const std::size_t first = n / 2;
  std::size_t second_done = 0;
  std::optional<OtherCoreThread> second;
  try {
    second.emplace(
        [&] { second_done = pread_fully(fd, out + first, n - first, at + static_cast<off_t>(first)); });
  } catch (const std::system_error&) {
    return pread_fully(fd, out, n, at);  // no thread to be had: one read, as below 16 MB
  }
  const std::size_t first_done = pread_fully(fd, out, first, at);
  second->join();
  // The bytes are whole only up to the first gap.
  return first_done < first ? first_done : first + second_done;
}

}  // namespace

Status ArchiveBytes::open_file(const std::filesystem::path& path) {
  fd_ = ::open(path.c_str(), O_RDONLY | O_CLOEXEC);
  struct stat st;
  if (fd_ < 0 || fstat(fd_, &st) != 0) {
    return Status::error(std::string("cannot read the archive: ") + std::strerror(errno));
  }
  size_ = static_cast<std::uint64_t>(st.st_size);
  window_.resize(kWindow);
  return {};
}

void ArchiveBytes::open_memory(std::string_view bytes) {
  memory_ = bytes.data();
  size_ = bytes.size();
}

Status ArchiveBytes::open_range(const ArchiveBytes& outer, std::uint64_t offset, std::uint64_t size) {
  if (offset > outer.size_ || size > outer.size_ - offset) {
    return Status::error("the member's data lies outside the archive");
  }
  size_ = size;
  if (outer.memory_ != nullptr) {
    memory_ = outer.memory_ + offset;
    return {};
  }
  fd_ = ::fcntl(outer.fd_, F_DUPFD_CLOEXEC, 0);
  if (fd_ < 0) return Status::error(std::string("cannot read the archive: ") + std::strerror(errno));
  base_ = outer.base_ + offset;
  window_.resize(kWindow);
  return {};
}

ArchiveBytes::~ArchiveBytes() {
  if (fd_ >= 0) ::close(fd_);
}

bool ArchiveBytes::refill(std::uint64_t offset) {
  window_offset_ = offset;
  if (offset >= size_) {
    window_size_ = 0;
    return false;
  }
  const auto want = static_cast<std::size_t>(std::min<std::uint64_t>(kWindow, size_ - offset));
  window_size_ = pread_fully(fd_, window_.data(), want, static_cast<off_t>(base_ + offset));
  return window_size_ > 0;
}

std::size_t ArchiveBytes::read_at(std::uint64_t offset, char* out, std::size_t n) {
  if (offset >= size_) return 0;
  if (n > size_ - offset) n = static_cast<std::size_t>(size_ - offset);
  if (memory_ != nullptr) {
    copy_bytes(out, memory_ + offset, n);
    return n;
  }
  std::size_t done = 0;
  while (done < n) {
    const std::uint64_t at = offset + done;
    if (at >= window_offset_ && at < window_offset_ + window_size_) {
      const std::size_t from = static_cast<std::size_t>(at - window_offset_);
      const std::size_t take = std::min(n - done, window_size_ - from);
      copy_bytes(out + done, window_.data() + from, take);
      done += take;
    } else if (n - done >= kWindow) {
      // Large reads (member data) go straight to the caller's buffer.
      const std::size_t want = n - done;
      const std::size_t got = pread_large(fd_, out + done, want, static_cast<off_t>(base_ + at));
      done += got;
      if (got < want) break;
    } else if (!refill(at)) {
      break;
    }
  }
  return done;
}

zlib_filefunc64_def ArchiveBytes::minizip_callbacks() {
  zlib_filefunc64_def callbacks{};
  callbacks.zopen64_file = open_stream;
  callbacks.zread_file = read_stream;
  callbacks.zwrite_file = write_stream;
  callbacks.ztell64_file = tell_stream;
  callbacks.zseek64_file = seek_stream;
  callbacks.zclose_file = close_stream;
  callbacks.zerror_file = error_stream;
  callbacks.opaque = this;
  return callbacks;
}

voidpf ArchiveBytes::open_stream(voidpf opaque, const void*, int mode) {
  if ((mode & ZLIB_FILEFUNC_MODE_WRITE) != 0) return nullptr;  // read-only, always
  auto* self = static_cast<ArchiveBytes*>(opaque);
  self->position_ = 0;
  return self;
}

uLong ArchiveBytes::read_stream(voidpf, voidpf stream, void* buf, uLong size) {
  auto* self = static_cast<ArchiveBytes*>(stream);
  // minizip reads the central directory one to four bytes at a time (336,210 calls on
  // kv_nested_256l): a read that lies wholly inside the window (or the memory image) is
  // served here, without read_at's clamping and loop. 393.1 M -> 380.0 M instructions in all.
  const std::uint64_t at = self->position_;
  const char* from = nullptr;
  if (self->memory_ != nullptr) {
    if (at <= self->size_ && size <= self->size_ - at) from = self->memory_ + at;
  } else if (at >= self->window_offset_ && at - self->window_offset_ <= self->window_size_ &&
             size <= self->window_size_ - (at - self->window_offset_)) {
    from = self->window_.data() + (at - self->window_offset_);
  }
  if (from != nullptr) {
    copy_bytes(static_cast<char*>(buf), from, size);
    self->position_ += size;
    return size;
  }
  const std::size_t n = self->read_at(self->position_, static_cast<char*>(buf), size);
  if (n < size) self->read_short_ = true;
  self->position_ += n;
  return static_cast<uLong>(n);
}

uLong ArchiveBytes::write_stream(voidpf, voidpf, const void*, uLong) { return 0; }

ZPOS64_T ArchiveBytes::tell_stream(voidpf, voidpf stream) {
  return static_cast<ArchiveBytes*>(stream)->position_;
}

long ArchiveBytes::seek_stream(voidpf, voidpf stream, ZPOS64_T offset, int origin) {
  auto* self = static_cast<ArchiveBytes*>(stream);
  std::uint64_t base = 0;
  if (origin == ZLIB_FILEFUNC_SEEK_CUR) base = self->position_;
  if (origin == ZLIB_FILEFUNC_SEEK_END) base = self->size_;
  if (offset > self->size_ || base > self->size_ - offset) return -1;
  self->position_ = base + offset;
  if (origin == ZLIB_FILEFUNC_SEEK_SET) self->last_absolute_seek_ = self->position_;
  return 0;
}

int ArchiveBytes::close_stream(voidpf, voidpf) { return 0; }

int ArchiveBytes::error_stream(voidpf, voidpf stream) {
  return static_cast<ArchiveBytes*>(stream)->read_short_ ? 1 : 0;
}

}  // namespace pt2lint
