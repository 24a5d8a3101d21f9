// Writes an output file whole or not at all, and only where it was asked to. The bytes go to a
// temporary file that mkstemp creates (O_CREAT|O_EXCL: a link or file planted under any name
// is never opened) in the output's own folder, and are synced before a rename puts them in
// place. The output itself is never opened: when it exists it must be a regular file (not a
// symbolic link, device, FIFO or folder), checked before writing and again before the rename.
// A failed write (a full disk, `ulimit -f`) leaves the output, which may be the input, as it
// was, and removes the temporary. Concurrent writers to one output each rename a whole file.
#pragma once

#include <filesystem>
#include <string>
#include <string_view>

#include "support/status.h"

namespace pt2lint {

class AtomicFile {
 public:
  // Makes the temporary for `target`; fails when `target` exists and is not a regular file,
  // or no temporary can be made in its folder.
  static Expected<AtomicFile> create(std::filesystem::path target);
  ~AtomicFile();  // removes the temporary unless commit() succeeded
  AtomicFile(AtomicFile&& other) noexcept;
  AtomicFile& operator=(AtomicFile&&) = delete;
  AtomicFile(const AtomicFile&) = delete;
  AtomicFile& operator=(const AtomicFile&) = delete;

  const std::filesystem::path& temporary() const { return temporary_; }
  // Open for writing on the temporary; the caller must not close it.
  int fd() const { return fd_; }

  // Syncs the temporary and renames it over the target. Fails, with the temporary removed,
  // when that fails or the target is no longer a regular file.
  Status commit();

 private:
  explicit AtomicFile(std::filesystem::path target) : target_(std::move(target)) {}

  std::filesystem::path target_;
  std::filesystem::path temporary_;
  int fd_ = -1;
  bool committed_ = false;
};

// Fails, saying why pt2lint refuses to write over `target`, when it exists and is not a
// regular file.
Status check_writable_target(const std::filesystem::path& target);

// Writes `bytes` to `target` through an AtomicFile.
Status write_file_atomically(const std::filesystem::path& target, std::string_view bytes);

}  // namespace pt2lint
