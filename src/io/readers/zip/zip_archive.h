// Read-only view of a zip archive through minizip's reading of the central directory. Members are read only
// on request, up to a size cap, and never trusted: every name is checked for ways out of the
// archive (absolute paths, '..', drive letters, symlinks) and for duplicates.
#pragma once

#include <cstdint>
#include <filesystem>
#include <functional>
#include <memory>
#include <string>
#include <string_view>
#include <vector>

#include "io/readers/padded_bytes.h"
#include "support/status.h"

namespace pt2lint {

class ZipArchive {
 public:
  struct Member {
    std::string name;
    std::uint64_t index = 0;            // position in the central directory
    std::uint64_t directory_offset = 0; // where its central-directory header starts
    std::uint64_t size = 0;             // uncompressed size the central directory declares
    std::uint64_t compressed_size = 0;
    std::uint16_t method = 0;           // 0 stored, 8 deflated
    std::uint32_t crc = 0;              // CRC-32 of the uncompressed data
    // Where its local header starts, from its central-directory record (zip64 aware).
    std::uint64_t local_header_offset = 0;
    std::uint16_t flags = 0;            // general-purpose bit flags (encryption, ...)
    bool is_directory = false;
    std::string unsafe;                 // why it cannot be trusted; empty when safe
    // Why PyTorch's zip reader (miniz, as PyTorch builds it) refuses the whole archive for
    // this member's central-directory record, or empty (see zip_directory_record.h).
    std::string refused_by_pytorch;
    // What torch.export.save never writes here but PyTorch reads anyway, or empty.
    std::string oddity;
  };

  ~ZipArchive();
  ZipArchive(const ZipArchive&) = delete;
  ZipArchive& operator=(const ZipArchive&) = delete;

  // Fails when the bytes are not a readable zip.
  static Expected<std::unique_ptr<ZipArchive>> open_file(const std::filesystem::path& path,
                                                         std::uint64_t max_members);
  // `bytes` must outlive the archive.
  static Expected<std::unique_ptr<ZipArchive>> open_memory(std::string_view bytes,
                                                           std::uint64_t max_members);

  const std::vector<Member>& members() const { return members_; }
  // The first safe member with this name under ASCII case folding, or null: PyTorch's zip
  // lookup (mz_zip_reader_locate_file with no flags) ignores case, so "MODELS/model.json" is
  // what it reads for "models/model.json".
  const Member* find(std::string_view name) const;
  std::uint64_t archive_size() const { return archive_size_; }
  // Where the central directory starts. Valid only when layout_known(): each member's
  // central-directory record was found where minizip said it was (no bytes prepended to
  // the archive, which would shift every offset).
  std::uint64_t central_directory_offset() const { return central_directory_offset_; }
  bool layout_known() const { return layout_known_; }

  // Who checks a stored member's CRC-32: read(), or the caller through crc_matches (to
  // overlap it with other work). A deflated member is always checked by its decoder.
  enum class Crc { kCheck, kLeaveToCaller };

  // Reads one member whole into `out`. Fails when the member is larger than `max_bytes`,
  // declares sizes the archive cannot hold, or its data is corrupt.
  Status read(const Member& member, std::uint64_t max_bytes, PaddedBytes& out,
              Crc crc = Crc::kCheck) const;

  // Fails, saying what, when the member's local header disagrees with its central-directory
  // record. PyTorch's reader goes by the central directory, as read() does, and loads such a
  // member (measured with PyTorch 2.11: a different name or CRC-32 in the local header), so
  // the caller reports it as a warning.
  Status check_local_header(const Member& member) const;

  // Whether `bytes` have the CRC-32 the central directory declares for `member`.
  static bool crc_matches(const Member& member, std::string_view bytes);

  // The zip a stored member holds (a torch.save zip: sample inputs, a pickled weight), opened
  // in place: its bytes are read from this archive on demand, never copied whole. Fails when
  // the member is not stored or is not a readable zip.
  Expected<std::unique_ptr<ZipArchive>> open_stored_member(const Member& member,
                                                           std::uint64_t max_members) const;

  // Hands the member's bytes as stored in the archive (compressed when `method` is not 0) to
  // `sink` in chunks, for copying a member into another archive without decoding it or
  // holding it whole. Stops, failing, when `sink` returns false.
  Status copy_stored_bytes(const Member& member,
                           const std::function<bool(std::string_view)>& sink) const;

 private:
  struct Handle;
  ZipArchive(std::unique_ptr<Handle> handle, std::uint64_t archive_size);
  // Fills each member's local_header_offset from its central-directory record, and
  // central_directory_offset_ / layout_known_.
  void read_local_header_offsets();
  // Marks each later copy of a name (exact, or equal under ASCII case folding) unsafe.
  void mark_duplicates();
  // The members of a central directory minizip reads without fail, from its bytes (see the
  // definition); false, with no member added, when minizip must list it.
  bool list_clean_directory(std::uint64_t entries);
  // Where the member's stored bytes start, from its local header.
  Expected<std::uint64_t> data_offset(const Member& member) const;
  static Expected<std::unique_ptr<ZipArchive>> finish_open(std::unique_ptr<Handle> handle,
                                                           std::uint64_t max_members);

  std::unique_ptr<Handle> handle_;
  std::uint64_t archive_size_ = 0;
  // Bytes inflated from deflated members so far, against the per-archive budget
  // (kInflateBudget...): a deflate bomb is refused before it is inflated, not after.
  mutable std::uint64_t inflated_ = 0;
  std::uint64_t central_directory_offset_ = 0;
  bool layout_known_ = false;
  std::vector<Member> members_;
};

// Two members sharing a name are unsafe: readers disagree on which copy wins. A later copy is
// marked unsafe with this message.
// Why a member whose CRC-32 does not match cannot be read.
inline constexpr std::string_view kCorruptMemberError =
    "the member's data is corrupt: its CRC-32 is not the one the archive declares";

inline constexpr std::string_view kDuplicateMemberError =
    "two archive members have the same name; readers disagree on which copy wins";
inline constexpr std::string_view kCaseDuplicateMemberError =
    "two archive members have names that differ only in letter case; PyTorch's zip reader "
    "ignores case and may read either copy, pt2lint reads the first";

// What one archive's deflated members may inflate to, in all: 16 times the archive, and at
// least 128 MiB. torch.export.save stores every member, so only a hand-made archive comes near
// it; a 1 MB deflate bomb of 1 GB is refused after 128 MiB.
inline constexpr std::uint64_t kMinInflateBudget = std::uint64_t{128} << 20;
inline constexpr std::uint64_t kInflateBudgetRatio = 16;

// Fails, saying why, when a member name cannot be extracted safely. Exposed for tests.
Status check_member_name(std::string_view name);

}  // namespace pt2lint
