#include "io/readers/zip/zip_local_header.h"

#include <fmt/format.h>

#include "io/readers/zip/little_endian.h"

namespace pt2lint {
namespace {

constexpr std::size_t kHeaderSize = 30;
constexpr std::uint32_t kSignature = 0x04034b50;
constexpr std::uint16_t kDataDescriptorFlag = 1u << 3;
constexpr std::uint32_t kZip64Marker = 0xFFFFFFFFu;


}  // namespace

Expected<LocalHeader> read_local_header(ArchiveBytes& bytes, std::uint64_t offset) {
  unsigned char raw[kHeaderSize];
  if (bytes.read_at(offset, reinterpret_cast<char*>(raw), kHeaderSize) != kHeaderSize) {
    return Status::error(
        fmt::format("its local header at offset {} lies past the end of the archive", offset));
  }
  if (le32(raw) != kSignature) {
    return Status::error(fmt::format(
        "no local header at offset {}, where the central directory puts it", offset));
  }
  LocalHeader header;
  header.flags = le16(raw + 6);
  header.method = le16(raw + 8);
  header.crc = le32(raw + 14);
  header.compressed_size = le32(raw + 18);
  header.size = le32(raw + 22);
  const std::uint16_t name_length = le16(raw + 26);
  const std::uint16_t extra_length = le16(raw + 28);
  header.name.assign(name_length, '\0');
  if (bytes.read_at(offset + kHeaderSize, header.name.data(), name_length) != name_length) {
    return Status::error("its local header is cut short by the end of the archive");
  }
  header.data_offset = offset + kHeaderSize + name_length + extra_length;
  return header;
}

Status check_local_header(const LocalHeader& header, const std::string& name,
                          std::uint16_t method, std::uint32_t crc,
                          std::uint64_t compressed_size, std::uint64_t size) {
  if (header.name != name) {
    return Status::error(
        fmt::format("its local header names it '{}'", header.name.substr(0, 200)));
  }
  if (header.method != method) {
    return Status::error(fmt::format(
        "its local header says compression method {}, the central directory {}", header.method,
        method));
  }
  if ((header.flags & kDataDescriptorFlag) != 0) return {};  // the sizes follow the data
  if (header.crc != crc) {
    return Status::error(fmt::format(
        "its local header gives CRC-32 {:08x}, the central directory {:08x}", header.crc, crc));
  }
  if (header.compressed_size != kZip64Marker && header.size != kZip64Marker &&
      (header.compressed_size != compressed_size || header.size != size)) {
    return Status::error(fmt::format(
        "its local header gives {} bytes ({} stored), the central directory {} ({} stored)",
        header.size, header.compressed_size, size, compressed_size));
  }
  return {};
}

}  // namespace pt2lint
