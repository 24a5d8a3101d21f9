// Opening an archive: its central directory read into members, each name checked, the
// layout found. Reading a member's data is zip_member_read.cc.
#include "io/readers/zip/zip_archive.h"

#include <sys/stat.h>

#include <algorithm>

#include <fmt/format.h>

#include "io/readers/zip/zip_archive_handle.h"
#include "io/readers/zip/little_endian.h"
#include "io/readers/zip/zip_directory_record.h"
#include "support/name_table.h"

namespace pt2lint {
namespace {

// "Version made by" high bytes for which Info-ZIP's unzip 6.0 makes a symbolic link of an
// entry whose external attributes hold S_IFLNK: its SYMLINK_HOST macro (unzpriv.h) names
// UNIX_ (3), ATARI_ (5), BEOS_ (16), ATHEOS_ (30) and VMS_ (2), and mapattr() reads the
// high 16 bits as a Unix mode for each of them.
bool host_has_unix_mode(unsigned host) {
  return host == 2 || host == 3 || host == 5 || host == 16 || host == 30;
}

// minizip's unz_file_info64 of the central-directory record at `header` (its 46 fixed bytes),
// as unzGetCurrentFileInfo64 fills it; tmu_date is not set.
unz_file_info64 minizip_info_of(const unsigned char* header) {
  unz_file_info64 info{};
  info.version = le16(header + 4);
  info.version_needed = le16(header + 6);
  info.flag = le16(header + 8);
  info.compression_method = le16(header + 10);
  info.dosDate = le32(header + 12);
  info.crc = le32(header + 16);
  info.compressed_size = le32(header + 20);
  info.uncompressed_size = le32(header + 24);
  info.size_filename = le16(header + 28);
  info.size_file_extra = le16(header + 30);
  info.size_file_comment = le16(header + 32);
  info.disk_num_start = le16(header + 34);
  info.internal_fa = le16(header + 36);
  info.external_fa = le32(header + 38);
  return info;
}

// What unzGetCurrentFileInfo64 (with a name buffer of 0xFFFF bytes and no extra field or
// comment buffers) returns for the record unzGoToFirstFile or unzGoToNextFile has just read,
// parsed from the same bytes: false when the caller must ask minizip instead. minizip reads
// each record twice, once to step to it and once for this, through one callback per one to
// four bytes (14 k instructions a record); this reads it once more from the window.
//
// It is exact: minizip's step has read the record's fixed fields from the offset of its last
// absolute seek (the one seek to the record that starts every read of one) without an error,
// so its second read reads the same fields from the same bytes and can fail only on the name,
// which this reads only when all of it lies inside the archive. minizip 1.1 does not apply the
// zip64 extra field to sizes on LP64, and a record with a saturated size goes to minizip
// anyway. The name is read into `buffer` and `read_name` views it; info.tmu_date is not set.
bool current_record_info(ArchiveBytes& bytes, unz_file_info64& info, std::string& buffer,
                         std::string_view& read_name) {
  constexpr std::size_t kHeader = 46;
  constexpr std::uint32_t kSaturated = 0xFFFFFFFFu;
  const std::uint64_t at = bytes.last_absolute_seek();
  if (at > bytes.size() || bytes.size() - at < kHeader) return false;
  unsigned char header[kHeader];
  if (bytes.read_at(at, reinterpret_cast<char*>(header), kHeader) != kHeader ||
      le32(header) != 0x02014b50) {
    return false;
  }
  const std::uint16_t name_length = le16(header + 28);
  if (bytes.size() - at - kHeader < name_length) return false;
  info = minizip_info_of(header);
  if (info.compressed_size == kSaturated || info.uncompressed_size == kSaturated) return false;
  if (buffer.size() < name_length) buffer.resize(name_length);
  if (bytes.read_at(at + kHeader, buffer.data(), name_length) != name_length) return false;
  read_name = std::string_view(buffer.data(), name_length);
  return true;
}

// The member a central-directory record describes, from minizip's fields of it.
ZipArchive::Member make_member(const unz_file_info64& info, std::string_view name, std::uint64_t index,
                               std::uint64_t directory_offset) {
  ZipArchive::Member m;
  m.name.assign(name);
  m.index = index;
  m.directory_offset = directory_offset;
  m.size = info.uncompressed_size;
  m.compressed_size = info.compressed_size;
  m.method = static_cast<std::uint16_t>(info.compression_method);
  m.crc = static_cast<std::uint32_t>(info.crc);
  m.is_directory = !m.name.empty() && m.name.back() == '/';
  m.unsafe = check_member_name(m.name).message();
  m.flags = static_cast<std::uint16_t>(info.flag);
  if (m.unsafe.empty() && host_has_unix_mode(static_cast<unsigned>(info.version >> 8)) &&
      ((info.external_fa >> 16) & S_IFMT) == S_IFLNK) {
    m.unsafe = "the member is a symbolic link";
  }
  return m;
}

}  // namespace

std::string minizip_status_text(int code) {
  switch (code) {
    case UNZ_ERRNO: return "the archive cannot be read";
    case UNZ_EOF: return "the data ends early";
    case UNZ_BADZIPFILE: return "a header is damaged or points outside the archive";
    case UNZ_INTERNALERROR: return "minizip reported an internal error";
    case UNZ_CRCERROR: return std::string(kCorruptMemberError);
    default: return fmt::format("the data cannot be decoded (zlib error {})", code);
  }
}

Status check_member_name(std::string_view name) {
  if (name.empty()) return Status::error("the member name is empty");
  if (name.find('\0') != std::string_view::npos) {
    return Status::error("the member name contains a NUL byte");
  }
  if (name.front() == '/' || name.front() == '\\') {
    return Status::error("the member name is an absolute path");
  }
  if (name.size() >= 2 && name[1] == ':' &&
      ((name[0] >= 'A' && name[0] <= 'Z') || (name[0] >= 'a' && name[0] <= 'z'))) {
    return Status::error("the member name starts with a drive letter");
  }
  // One pass over the name: components end at '/' or '\\'; a component of exactly ".." is
  // unsafe. (The NUL check above has already scanned the name once, with memchr.)
  std::size_t component_start = 0;
  const std::size_t n = name.size();
  for (std::size_t i = 0; i <= n; ++i) {
    if (i < n && name[i] != '/' && name[i] != '\\') continue;
    if (i - component_start == 2 && name[component_start] == '.' &&
        name[component_start + 1] == '.') {
      return Status::error("the member name has a '..' component that escapes the archive");
    }
    component_start = i + 1;
  }
  return {};
}

ZipArchive::ZipArchive(std::unique_ptr<Handle> handle, std::uint64_t archive_size)
    : handle_(std::move(handle)), archive_size_(archive_size) {}

ZipArchive::~ZipArchive() = default;

Expected<std::unique_ptr<ZipArchive>> ZipArchive::open_file(const std::filesystem::path& path,
                                                            std::uint64_t max_members) {
  auto handle = std::make_unique<Handle>();
  if (Status opened = handle->bytes.open_file(path); !opened.ok()) return opened;
  return finish_open(std::move(handle), max_members);
}

Expected<std::unique_ptr<ZipArchive>> ZipArchive::open_memory(std::string_view bytes,
                                                              std::uint64_t max_members) {
  auto handle = std::make_unique<Handle>();
  handle->bytes.open_memory(bytes);
  return finish_open(std::move(handle), max_members);
}

Expected<std::unique_ptr<ZipArchive>> ZipArchive::open_stored_member(const Member& member,
                                                                    std::uint64_t max_members) const {
  if (member.method != 0 || member.size != member.compressed_size) {
    return Status::error("the member is not stored uncompressed");
  }
  Expected<std::uint64_t> offset = data_offset(member);
  if (!offset.ok()) return offset.status();
  auto handle = std::make_unique<Handle>();
  if (Status opened = handle->bytes.open_range(handle_->bytes, offset.value(), member.size); !opened.ok()) {
    return opened;
  }
  return finish_open(std::move(handle), max_members);
}

Expected<std::unique_ptr<ZipArchive>> ZipArchive::finish_open(std::unique_ptr<Handle> handle,
                                                              std::uint64_t max_members) {
  zlib_filefunc64_def callbacks = handle->bytes.minizip_callbacks();
  handle->zip = unzOpen2_64("archive", &callbacks);
  if (handle->zip == nullptr) {
    return Status::error("not a readable zip archive: no valid end of central directory record");
  }
  unzFile zip = handle->zip;
  unz_global_info64 global;
  if (unzGetGlobalInfo64(zip, &global) != UNZ_OK) {
    return Status::error("the archive's central directory cannot be read");
  }
  if (global.number_entry > max_members) {
    return Status::error(fmt::format("the archive has {} members, more than the limit of {}",
                                     global.number_entry, max_members));
  }
  const std::uint64_t archive_size = handle->bytes.size();
  std::unique_ptr<ZipArchive> archive(new ZipArchive(std::move(handle), archive_size));
  archive->members_.reserve(static_cast<std::size_t>(global.number_entry));
  int status = global.number_entry == 0 ? UNZ_END_OF_LIST_OF_FILE : unzGoToFirstFile(zip);
  if (status == UNZ_OK && archive->list_clean_directory(global.number_entry)) {
    status = UNZ_END_OF_LIST_OF_FILE;
  }
  std::string name(status == UNZ_OK ? 0xFFFF : 0, '\0');  // a name's length is a 16-bit field
  for (std::uint64_t i = 0; status == UNZ_OK; ++i, status = unzGoToNextFile(zip)) {
    unz_file_info64 info;
    unz64_file_pos position;
    std::string_view read_name;
    if (!current_record_info(archive->handle_->bytes, info, name, read_name) &&
        unzGetCurrentFileInfo64(zip, &info, name.data(), static_cast<uLong>(name.size()), nullptr,
                                0, nullptr, 0) != UNZ_OK) {
      status = UNZ_BADZIPFILE;
      break;
    }
    if (unzGetFilePos64(zip, &position) != UNZ_OK) {
      status = UNZ_BADZIPFILE;
      break;
    }
    archive->members_.push_back(make_member(
        info,
        read_name.data() != nullptr
            ? read_name
            : std::string_view(name.data(), std::min<std::size_t>(info.size_filename, name.size())),
        i, position.pos_in_zip_directory));
  }
  if (archive->handle_->bytes.read_short()) {
    return Status::error(
        "the archive is truncated: its central directory runs past the end of the file");
  }
  if (status != UNZ_END_OF_LIST_OF_FILE) {
    return Status::error(fmt::format("member {} of the central directory cannot be read: {}",
                                     archive->members_.size(), minizip_status_text(status)));
  }
  archive->read_local_header_offsets();
  archive->mark_duplicates();
  return archive;
}

// minizip's unzGoToNextFile costs ~4 k instructions a record (one callback per one to four
// bytes; 14.9 M of kv_nested_256l's 3,595 members, on the main thread before the program JSON
// can be read). A directory on which minizip cannot fail is listed here from one read of its
// bytes instead, giving exactly the members minizip's stepping would: every record lies
// wholly inside the archive, starts with the signature, declares no saturated size, and its
// extra field is a sequence of (id, size) blocks that ends exactly where the field does, with
// no zip64 block (id 1: minizip 1.1 reads it without skipping its data). Then each of
// minizip's reads and seeks for the record succeeds and reads the same fields from the same
// bytes. Anything else (and a count of 0xFFFF, which minizip steps past until a read fails)
// returns false with no member added, and minizip lists the directory as before, so a
// damaged directory is accepted or refused exactly as it was. torch.export.save writes
// neither extra fields nor comments: every archive it writes is listed here.
bool ZipArchive::list_clean_directory(std::uint64_t entries) {
  unzFile zip = handle_->zip;
  constexpr std::size_t kHeader = 46;
  constexpr std::uint32_t kSaturated = 0xFFFFFFFFu;
  if (entries == 0xFFFF) return false;
  unz64_file_pos first;
  if (unzGetFilePos64(zip, &first) != UNZ_OK) return false;
  ArchiveBytes& bytes = handle_->bytes;
  // Where minizip read the first record: its directory offset plus the bytes before the zip.
  const std::uint64_t start = bytes.last_absolute_seek();
  if (start == UINT64_MAX || start > bytes.size() || start < first.pos_in_zip_directory) return false;
  const std::uint64_t length = bytes.size() - start;
  if (length / kHeader < entries) return false;  // a record is at least 46 bytes
  std::string directory(static_cast<std::size_t>(length), '\0');
  if (bytes.read_at(start, directory.data(), directory.size()) != directory.size()) return false;
  const auto* data = reinterpret_cast<const unsigned char*>(directory.data());
  std::uint64_t at = 0;
  for (std::uint64_t i = 0; i < entries; ++i) {
    if (length - at < kHeader || le32(data + at) != 0x02014b50) break;
    const unsigned char* header = data + at;
    const std::uint16_t name_length = le16(header + 28);
    const std::uint16_t extra_length = le16(header + 30);
    const std::uint16_t comment_length = le16(header + 32);
    const std::uint64_t record = kHeader + name_length + extra_length + comment_length;
    if (length - at < record) break;
    const unz_file_info64 info = minizip_info_of(header);
    if (info.compressed_size == kSaturated || info.uncompressed_size == kSaturated) break;
    const unsigned char* extra = header + kHeader + name_length;
    std::uint32_t used = 0;
    bool plain = true;
    while (plain && used < extra_length) {
      plain = extra_length - used >= 4 && le16(extra + used) != 0x0001;
      if (plain) used += 4 + le16(extra + used + 2);
    }
    if (!plain || used != extra_length) break;
    members_.push_back(make_member(
        info, std::string_view(reinterpret_cast<const char*>(header + kHeader), name_length), i,
        first.pos_in_zip_directory + at));
    at += record;
  }
  if (members_.size() == entries) return true;
  members_.clear();
  return false;
}

namespace {

bool has_capital(std::string_view name) {
  for (char c : name) {
    if (c >= 'A' && c <= 'Z') return true;
  }
  return false;
}

std::string ascii_folded(std::string_view name) {
  std::string out(name);
  for (char& c : out) {
    if (c >= 'A' && c <= 'Z') c = static_cast<char>(c - 'A' + 'a');
  }
  return out;
}

bool equal_folded(std::string_view a, std::string_view b) {
  if (a.size() != b.size()) return false;
  for (std::size_t i = 0; i < a.size(); ++i) {
    char x = a[i], y = b[i];
    if (x >= 'A' && x <= 'Z') x = static_cast<char>(x - 'A' + 'a');
    if (y >= 'A' && y <= 'Z') y = static_cast<char>(y - 'A' + 'a');
    if (x != y) return false;
  }
  return true;
}

}  // namespace

// A flat table of views (support/name_table.h), a folded copy only for names with capital
// letters, instead of a std::unordered_map<std::string> holding a folded copy of every name
// (a node and a copy per member): 4.2 M -> 1.1 M instructions on kv_nested_256l's 3,595
// members. The table lives only for this call, as the map did (peak RSS unchanged).
void ZipArchive::mark_duplicates() {
  NameTable folded;
  folded.reserve(members_.size());
  std::vector<std::uint64_t> first_with;  // per folded name, its first member's index
  first_with.reserve(members_.size());
  std::vector<std::unique_ptr<std::string>> copies;
  for (auto& m : members_) {
    std::string_view key = m.name;
    if (has_capital(key)) {
      copies.push_back(std::make_unique<std::string>(ascii_folded(key)));
      key = *copies.back();
    }
    const int id = folded.intern(key);
    const bool inserted = static_cast<std::size_t>(id) == first_with.size();
    if (inserted) first_with.push_back(m.index);
    if (inserted || !m.unsafe.empty()) continue;
    const std::uint64_t first_index = first_with[static_cast<std::size_t>(id)];
    const Member& first = members_[static_cast<std::size_t>(first_index)];
    m.unsafe = first.name == m.name
                   ? fmt::format("{} (the first copy is member {})", kDuplicateMemberError,
                                 first_index)
                   : fmt::format("{} (the first copy is member {}, '{}')",
                                 kCaseDuplicateMemberError, first_index, first.name);
  }
}

const ZipArchive::Member* ZipArchive::find(std::string_view name) const {
  for (const auto& m : members_) {
    if (m.unsafe.empty() && equal_folded(m.name, name)) return &m;
  }
  return nullptr;
}

void ZipArchive::read_local_header_offsets() {
  central_directory_offset_ = members_.empty() ? archive_size_ : members_.front().directory_offset;
  layout_known_ = false;
  if (central_directory_offset_ >= archive_size_) return;
  // The whole directory in one read (minizip has just read it through the same window).
  std::string directory(static_cast<std::size_t>(archive_size_ - central_directory_offset_), '\0');
  if (handle_->bytes.read_at(central_directory_offset_, directory.data(), directory.size()) !=
      directory.size()) {
    return;
  }
  for (auto& m : members_) {
    if (m.directory_offset < central_directory_offset_) return;
    const std::uint64_t at = m.directory_offset - central_directory_offset_;
    DirectoryRecord record;
    if (at >= directory.size() ||
        !parse_directory_record(std::string_view(directory).substr(at), record)) {
      return;
    }
    // minizip 1.1 never applies a zip64 size on LP64 (it compares with (unsigned long)-1):
    // the sizes come from the record, as miniz reads them.
    m.size = record.size;
    m.compressed_size = record.compressed_size;
    m.local_header_offset = record.local_header_offset;
    m.refused_by_pytorch = check_miniz_reads(record, archive_size_).message();
    m.oddity = check_ordinary_record(record, archive_size_).message();
  }
  layout_known_ = true;
}


}  // namespace pt2lint