// One central-directory record read as PyTorch's zip reader (miniz 3.0.2, as
// caffe2/serialize builds it) reads it: the zip64 extra field applied to each saturated
// 32-bit field, and the record checks miniz makes when it opens an archive. Debian's
// minizip 1.1 never applies zip64 sizes on LP64 systems, so ZipArchive takes the sizes and
// the offset from here.
#pragma once

#include <cstdint>
#include <string>
#include <string_view>

#include "io/readers/zip/zip_member_fields.h"
#include "support/status.h"

namespace pt2lint {

// compressed_size and size with the zip64 extra field applied.
struct DirectoryRecord : ZipMemberFields {
  // As the record's 32-bit fields hold them (0xFFFFFFFF: see the zip64 extra field).
  std::uint32_t raw_compressed_size = 0;
  std::uint32_t raw_size = 0;
  std::uint32_t raw_local_header_offset = 0;
  std::uint64_t local_header_offset = 0;  // with the zip64 extra field applied
  bool saturated_without_zip64 = false;  // a field reads 0xFFFFFFFF and no zip64 value is given
};

// False when `record` does not start with a whole central-directory record.
bool parse_directory_record(std::string_view record, DirectoryRecord& out);

// Fails, saying why PyTorch cannot read the archive for this record: masked local headers
// (central-directory encryption) or a saturated field without its zip64 value.
Status check_miniz_reads(const DirectoryRecord& record, std::uint64_t archive_size);

// Fails, saying what in this record torch.export.save never writes but PyTorch 2.11 reads
// anyway (measured, docs/reliability.md): encryption flags on a member, or a saturated 32-bit
// local header offset in a file under 4 GiB. The caller reports it as a warning.
Status check_ordinary_record(const DirectoryRecord& record, std::uint64_t archive_size);

}  // namespace pt2lint
