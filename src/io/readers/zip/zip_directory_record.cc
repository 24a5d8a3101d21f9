#include "io/readers/zip/zip_directory_record.h"

#include <fmt/format.h>

#include "io/readers/zip/little_endian.h"

namespace pt2lint {
namespace {

constexpr std::size_t kRecordHeader = 46;
constexpr std::uint32_t kRecordSignature = 0x02014b50;
constexpr std::uint32_t kSaturated = 0xFFFFFFFFu;
constexpr std::uint16_t kZip64ExtraId = 0x0001;
// General-purpose flags miniz will not extract past.
constexpr std::uint16_t kEncrypted = 1u << 0;
constexpr std::uint16_t kStrongEncryption = 1u << 6;
constexpr std::uint16_t kMaskedLocalHeaders = 1u << 13;

// Applies the zip64 extra field: its values are present in this order, each only when its
// 32-bit field is saturated. False when the field is too short for what it must hold.
bool apply_zip64(const unsigned char* extra, std::size_t length, DirectoryRecord& out) {
  for (std::size_t i = 0; i + 4 <= length;) {
    const std::uint16_t id = le16(extra + i);
    const std::uint16_t size = le16(extra + i + 2);
    if (i + 4 + size > length) return false;
    if (id == kZip64ExtraId) {
      const unsigned char* p = extra + i + 4;
      const unsigned char* end = p + size;
      const auto take = [&](std::uint64_t& field) {
        if (p + 8 > end) return false;
        field = le64(p);
        p += 8;
        return true;
      };
      if (out.raw_size == kSaturated && !take(out.size)) return false;
      if (out.raw_compressed_size == kSaturated && !take(out.compressed_size)) return false;
      if (out.raw_local_header_offset == kSaturated && !take(out.local_header_offset)) {
        return false;
      }
      return true;
    }
    i += 4 + size;
  }
  return false;
}

}  // namespace

bool parse_directory_record(std::string_view record, DirectoryRecord& out) {
  const auto* header = reinterpret_cast<const unsigned char*>(record.data());
  if (record.size() < kRecordHeader || le32(header) != kRecordSignature) return false;
  out.flags = le16(header + 8);
  out.method = le16(header + 10);
  out.raw_compressed_size = le32(header + 20);
  out.raw_size = le32(header + 24);
  out.raw_local_header_offset = le32(header + 42);
  out.compressed_size = out.raw_compressed_size;
  out.size = out.raw_size;
  out.local_header_offset = out.raw_local_header_offset;
  const bool saturated = out.raw_compressed_size == kSaturated || out.raw_size == kSaturated ||
                         out.raw_local_header_offset == kSaturated;
  if (!saturated) return true;
  const std::uint16_t name_length = le16(header + 28);
  const std::uint16_t extra_length = le16(header + 30);
  if (record.size() < kRecordHeader + name_length + extra_length) return false;
  out.saturated_without_zip64 =
      !apply_zip64(header + kRecordHeader + name_length, extra_length, out);
  return true;
}

Status check_miniz_reads(const DirectoryRecord& record, std::uint64_t /*archive_size*/) {
  if ((record.flags & kMaskedLocalHeaders) != 0) {
    return Status::error("its flags say the local headers are masked (bit 13, central-directory "
                         "encryption), so its name and data cannot be read");
  }
  if (record.saturated_without_zip64) {
    return Status::error("a size or offset field reads 0xFFFFFFFF but its zip64 extra field "
                         "does not give the value");
  }
  return {};
}

Status check_ordinary_record(const DirectoryRecord& record, std::uint64_t archive_size) {
  if ((record.flags & (kEncrypted | kStrongEncryption)) != 0) {
    return Status::error(fmt::format(
        "its general-purpose flags ({:#06x}) mark it encrypted, though its data is plain; "
        "PyTorch 2.11 reads it anyway (measured), other zip tools refuse it or ask for a password",
        record.flags));
  }
  if (record.raw_local_header_offset == kSaturated && archive_size < kSaturated) {
    return Status::error("its 32-bit local header offset is saturated (0xFFFFFFFF, the real one "
                         "in a zip64 field) in a file under 4 GiB; PyTorch 2.11 reads it "
                         "(measured), but no writer needs zip64 there");
  }
  return {};
}

}  // namespace pt2lint
