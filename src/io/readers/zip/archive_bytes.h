// Random access to the bytes of an archive, from an open file or from memory, and the
// callbacks through which minizip reads them. Reads from a file go through one 16 KB window:
// minizip reads central-directory headers a few bytes at a time, and a system call for each
// would cost more than parsing the whole directory. The file is never mapped, so an archive
// that shrinks while it is read gives short reads, not a SIGBUS.
#pragma once

#include <minizip/ioapi.h>

#include <cstdint>
#include <filesystem>
#include <string>
#include <string_view>
#include <vector>

#include "support/status.h"

namespace pt2lint {

class ArchiveBytes {
 public:
  // Opens `path` for reading.
  Status open_file(const std::filesystem::path& path);
  // `bytes` must outlive this object.
  void open_memory(std::string_view bytes);
  // `size` bytes of `outer` from `offset` (a stored member holding a zip of its own), read
  // through a descriptor of its own; a memory image must outlive this object.
  Status open_range(const ArchiveBytes& outer, std::uint64_t offset, std::uint64_t size);
  ~ArchiveBytes();

  std::uint64_t size() const { return size_; }
  // Whether minizip asked for bytes the archive does not have: its records are cut short.
  bool read_short() const { return read_short_; }
  // The offset of minizip's last absolute seek (ZLIB_FILEFUNC_SEEK_SET), or UINT64_MAX before
  // the first: each of minizip's reads of a central-directory record starts with one, to the
  // record, so after unzGoToNextFile it is where minizip read the current record.
  std::uint64_t last_absolute_seek() const { return last_absolute_seek_; }

  // Copies up to `n` bytes at `offset` into `out`; returns how many it copied (fewer at the
  // end of the archive or on a read error).
  std::size_t read_at(std::uint64_t offset, char* out, std::size_t n);

  // Callbacks for unzOpen2_64, reading this object from its current position. This object
  // must not move while minizip uses them.
  zlib_filefunc64_def minizip_callbacks();

 private:
  static voidpf open_stream(voidpf opaque, const void* name, int mode);
  static uLong read_stream(voidpf opaque, voidpf stream, void* buf, uLong size);
  static uLong write_stream(voidpf opaque, voidpf stream, const void* buf, uLong size);
  static ZPOS64_T tell_stream(voidpf opaque, voidpf stream);
  static long seek_stream(voidpf opaque, voidpf stream, ZPOS64_T offset, int origin);
  static int close_stream(voidpf opaque, voidpf stream);
  static int error_stream(voidpf opaque, voidpf stream);

  bool refill(std::uint64_t offset);

  int fd_ = -1;
  const char* memory_ = nullptr;
  std::uint64_t size_ = 0;
  std::uint64_t base_ = 0;      // where these bytes start in the file (open_range)
  std::uint64_t position_ = 0;  // minizip's reading position
  std::uint64_t last_absolute_seek_ = UINT64_MAX;
  std::vector<char> window_;
  std::uint64_t window_offset_ = 0;
  std::size_t window_size_ = 0;
  bool read_short_ = false;
};

}  // namespace pt2lint
