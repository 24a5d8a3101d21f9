#include "io/readers/zip_archive.h"

#include <minizip/unzip.h>
#include <sys/stat.h>
#include <zlib.h>

#include <algorithm>
#include <unordered_map>

#include <fmt/format.h>

#include "io/readers/archive_bytes.h"
#include "io/readers/crc32_fold.h"
#include "io/readers/little_endian.h"
#include "io/readers/zip_directory_record.h"
#include "io/readers/zip_local_header.h"

namespace pt2lint {

struct ZipArchive::Handle {
  ArchiveBytes bytes;
  unzFile zip = nullptr;
  ~Handle() {
    if (zip != nullptr) unzClose(zip);
  }
};

namespace {

// Deflate cannot expand data by more than about 1032:1; a declared size beyond that is a lie.
constexpr std::uint64_t kMaxDeflateRatio = 1032;
constexpr std::uint16_t kStored = 0;
constexpr std::uint16_t kDeflated = Z_DEFLATED;
// "Version made by" high bytes whose external attributes hold a Unix mode, as Info-ZIP's
// unzip reads them (it makes links for each): Unix, Atari ST, BeOS, OS X.
bool host_has_unix_mode(unsigned host) { return host == 3 || host == 5 || host == 16 || host == 30; }
constexpr std::size_t kReadChunk = std::size_t{1} << 20;

std::string minizip_error(int code) {
  switch (code) {
    case UNZ_ERRNO: return "the archive cannot be read";
    case UNZ_EOF: return "the data ends early";
    case UNZ_BADZIPFILE: return "a header is damaged or points outside the archive";
    case UNZ_INTERNALERROR: return "minizip reported an internal error";
    case UNZ_CRCERROR: return std::string(kCorruptMemberError);
    default: return fmt::format("the data cannot be decoded (zlib error {})", code);
  }
}

// Positions minizip on `member` and checks its local header against the central directory;
// returns where its stored bytes start.
bool locate_data(unzFile zip, const ZipArchive::Member& member, std::uint64_t& offset,
                        std::string& error) {
  const unz64_file_pos position{member.directory_offset, member.index};
  int status = unzGoToFilePos64(zip, &position);
  int method = 0;
  int level = 0;
  if (status == UNZ_OK) status = unzOpenCurrentFile2(zip, &method, &level, /*raw=*/1);
  if (status != UNZ_OK) {
    error = fmt::format("the member cannot be opened: {}", minizip_error(status));
    return false;
  }
  offset = unzGetCurrentFileZStreamPos64(zip);
  unzCloseCurrentFile(zip);
  return true;
}

// Inflates `compressed` bytes of raw deflate at `offset` into out[0, size); returns how many
// bytes it produced, or sets `error` when the stream is corrupt.
std::uint64_t inflate_member(ArchiveBytes& bytes, std::uint64_t offset, std::uint64_t compressed,
                             char* out, std::uint64_t size, std::string& error) {
  z_stream z{};
  if (inflateInit2(&z, -MAX_WBITS) != Z_OK) {
    error = "zlib cannot be initialised";
    return 0;
  }
  std::string chunk(static_cast<std::size_t>(std::min<std::uint64_t>(compressed, kReadChunk)), '\0');
  std::uint64_t read = 0;
  std::uint64_t done = 0;
  int status = Z_OK;
  while (status == Z_OK && done < size && read < compressed) {
    const auto want = static_cast<std::size_t>(std::min<std::uint64_t>(compressed - read, kReadChunk));
    const std::size_t got = bytes.read_at(offset + read, chunk.data(), want);
    if (got == 0) break;
    read += got;
    z.next_in = reinterpret_cast<Bytef*>(chunk.data());
    z.avail_in = static_cast<uInt>(got);
    while (z.avail_in > 0 && done < size && status == Z_OK) {
      z.next_out = reinterpret_cast<Bytef*>(out + done);
      z.avail_out = static_cast<uInt>(std::min<std::uint64_t>(size - done, kReadChunk));
      const uInt before = z.avail_out;
      status = inflate(&z, Z_NO_FLUSH);
      done += before - z.avail_out;
      if (status == Z_BUF_ERROR) status = Z_OK;  // needs more input
    }
  }
  inflateEnd(&z);
  if (status != Z_OK && status != Z_STREAM_END) {
    error = fmt::format("the member's data cannot be read: {}", minizip_error(status));
  }
  return done;
}

}  // namespace

std::string unsafe_member_name_reason(std::string_view name) {
  if (name.empty()) return "the member name is empty";
  if (name.find('\0') != std::string_view::npos) return "the member name contains a NUL byte";
  if (name.front() == '/' || name.front() == '\\') {
    return "the member name is an absolute path";
  }
  if (name.size() >= 2 && name[1] == ':' &&
      ((name[0] >= 'A' && name[0] <= 'Z') || (name[0] >= 'a' && name[0] <= 'z'))) {
    return "the member name starts with a drive letter";
  }
  // One pass over the name: components end at '/' or '\\'; a component of exactly ".." is
  // unsafe. (The NUL check above has already scanned the name once, with memchr.)
  std::size_t component_start = 0;
  const std::size_t n = name.size();
  for (std::size_t i = 0; i <= n; ++i) {
    if (i < n && name[i] != '/' && name[i] != '\\') continue;
    if (i - component_start == 2 && name[component_start] == '.' &&
        name[component_start + 1] == '.') {
      return "the member name has a '..' component that escapes the archive";
    }
    component_start = i + 1;
  }
  return {};
}

ZipArchive::ZipArchive(std::unique_ptr<Handle> handle, std::uint64_t archive_size)
    : handle_(std::move(handle)), archive_size_(archive_size) {}

ZipArchive::~ZipArchive() = default;

std::unique_ptr<ZipArchive> ZipArchive::open_file(const std::filesystem::path& path,
                                                  std::uint64_t max_members,
                                                  std::string& error) {
  auto handle = std::make_unique<Handle>();
  if (!handle->bytes.open_file(path, error)) return nullptr;
  return finish_open(std::move(handle), max_members, error);
}

std::unique_ptr<ZipArchive> ZipArchive::open_memory(std::string_view bytes,
                                                    std::uint64_t max_members,
                                                    std::string& error) {
  auto handle = std::make_unique<Handle>();
  handle->bytes.open_memory(bytes);
  return finish_open(std::move(handle), max_members, error);
}

std::unique_ptr<ZipArchive> ZipArchive::finish_open(std::unique_ptr<Handle> handle,
                                                    std::uint64_t max_members,
                                                    std::string& error) {
  zlib_filefunc64_def callbacks = handle->bytes.minizip_callbacks();
  handle->zip = unzOpen2_64("archive", &callbacks);
  if (handle->zip == nullptr) {
    error = "not a readable zip archive: no valid end of central directory record";
    return nullptr;
  }
  unzFile zip = handle->zip;
  unz_global_info64 global;
  if (unzGetGlobalInfo64(zip, &global) != UNZ_OK) {
    error = "the archive's central directory cannot be read";
    return nullptr;
  }
  if (global.number_entry > max_members) {
    error = fmt::format("the archive has {} members, more than the limit of {}",
                        global.number_entry, max_members);
    return nullptr;
  }
  const std::uint64_t archive_size = handle->bytes.size();
  std::unique_ptr<ZipArchive> archive(new ZipArchive(std::move(handle), archive_size));
  archive->members_.reserve(static_cast<std::size_t>(global.number_entry));
  std::string name(0xFFFF, '\0');  // a name's length is a 16-bit field
  int status = global.number_entry == 0 ? UNZ_END_OF_LIST_OF_FILE : unzGoToFirstFile(zip);
  for (std::uint64_t i = 0; status == UNZ_OK; ++i, status = unzGoToNextFile(zip)) {
    unz_file_info64 info;
    unz64_file_pos position;
    if (unzGetCurrentFileInfo64(zip, &info, name.data(), static_cast<uLong>(name.size()), nullptr,
                                0, nullptr, 0) != UNZ_OK ||
        unzGetFilePos64(zip, &position) != UNZ_OK) {
      status = UNZ_BADZIPFILE;
      break;
    }
    Member m;
    m.name.assign(name.data(), std::min<std::size_t>(info.size_filename, name.size()));
    m.index = i;
    m.directory_offset = position.pos_in_zip_directory;
    m.size = info.uncompressed_size;
    m.compressed_size = info.compressed_size;
    m.method = static_cast<std::uint16_t>(info.compression_method);
    m.crc = static_cast<std::uint32_t>(info.crc);
    m.is_directory = !m.name.empty() && m.name.back() == '/';
    m.unsafe = unsafe_member_name_reason(m.name);
    m.flags = static_cast<std::uint16_t>(info.flag);
    if (m.unsafe.empty() && host_has_unix_mode(static_cast<unsigned>(info.version >> 8)) &&
        ((info.external_fa >> 16) & S_IFMT) == S_IFLNK) {
      m.unsafe = "the member is a symbolic link";
    }
    archive->members_.push_back(std::move(m));
  }
  if (archive->handle_->bytes.read_short()) {
    error = "the archive is truncated: its central directory runs past the end of the file";
    return nullptr;
  }
  if (status != UNZ_END_OF_LIST_OF_FILE) {
    error = fmt::format("member {} of the central directory cannot be read: {}",
                        archive->members_.size(), minizip_error(status));
    return nullptr;
  }
  archive->read_local_header_offsets();
  archive->mark_duplicates();
  return archive;
}

namespace {

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

void ZipArchive::mark_duplicates() {
  std::unordered_map<std::string, std::uint64_t> first_index;
  first_index.reserve(members_.size());
  for (auto& m : members_) {
    auto [it, inserted] = first_index.emplace(ascii_folded(m.name), m.index);
    if (inserted || !m.unsafe.empty()) continue;
    const Member& first = members_[static_cast<std::size_t>(it->second)];
    m.unsafe = first.name == m.name
                   ? fmt::format("{} (the first copy is member {})", kDuplicateMemberError,
                                 it->second)
                   : fmt::format("{} (the first copy is member {}, '{}')",
                                 kCaseDuplicateMemberError, it->second, first.name);
  }
}

const ZipArchive::Member* ZipArchive::find(std::string_view name) const {
  for (const auto& m : members_) {
    if (m.unsafe.empty() && equal_folded(m.name, name)) return &m;
  }
  return nullptr;
}

bool ZipArchive::crc_matches(const Member& member, std::string_view bytes) {
  return crc32_of(0, bytes.data(), bytes.size()) == member.crc;
}

bool ZipArchive::read(const Member& member, std::uint64_t max_bytes, PaddedBytes& out,
                      std::string& error, Crc crc) const {
  if (member.size > max_bytes) {
    error = fmt::format("the member is {} bytes, more than the limit of {} bytes", member.size,
                        max_bytes);
    return false;
  }
  if (member.compressed_size > archive_size_) {
    error = fmt::format("the member declares {} compressed bytes but the whole archive is {} "
                        "bytes",
                        member.compressed_size, archive_size_);
    return false;
  }
  if (member.method == kStored && member.size != member.compressed_size) {
    error = fmt::format("the member is stored uncompressed but declares {} bytes of data and "
                        "{} bytes in the archive",
                        member.size, member.compressed_size);
    return false;
  }
  if (member.method != kStored && member.method != kDeflated) {
    error = fmt::format("the member uses compression method {}; PyTorch archives store their "
                        "members, and pt2lint reads stored and deflated ones",
                        member.method);
    return false;
  }
  if (member.method == kDeflated && member.size / kMaxDeflateRatio > member.compressed_size + 1) {
    error = fmt::format("the member declares {} bytes compressed into {}, more than any "
                        "compression achieves",
                        member.size, member.compressed_size);
    return false;
  }
  if (member.method == kDeflated) {
    const std::uint64_t budget = std::max(kMinInflateBudget, kInflateBudgetRatio * archive_size_);
    if (member.size > budget - std::min(budget, inflated_)) {
      error = fmt::format("inflating it would take the archive's deflated members past {} bytes, "
                          "the budget for a {}-byte file (a deflate bomb?); torch.export.save "
                          "stores every member uncompressed",
                          budget, archive_size_);
      return false;
    }
    inflated_ += member.size;
  }
  std::uint64_t offset = 0;
  if (!data_offset(member, offset, error)) return false;
  if (!out.allocate(static_cast<std::size_t>(member.size))) {
    error = fmt::format("cannot allocate {} bytes for the member", member.size);
    return false;
  }
  std::uint64_t done = 0;
  if (member.method == kStored) {
    // Straight from the archive into the caller's buffer.
    done = handle_->bytes.read_at(offset, out.data(), static_cast<std::size_t>(member.size));
  } else {
    done = inflate_member(handle_->bytes, offset, member.compressed_size, out.data(),
                          member.size, error);
    if (!error.empty()) {
      out.shrink(0);
      return false;
    }
  }
  if (done < member.size) {
    out.shrink(0);
    error = fmt::format("the member's data ends after {} of the {} bytes it declares", done,
                        member.size);
    return false;
  }
  // A deflated member is checked here always: its CRC-32 is the only check of the decoding.
  if ((crc == Crc::kCheck || member.method != kStored) && !crc_matches(member, out.view())) {
    out.shrink(0);
    error = std::string(kCorruptMemberError);
    return false;
  }
  return true;
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
    m.refused_by_pytorch = miniz_refusal(record, archive_size_);
    m.oddity = directory_oddity(record, archive_size_);
  }
  layout_known_ = true;
}

bool ZipArchive::data_offset(const Member& member, std::uint64_t& offset,
                             std::string& error) const {
  // Without a known layout (bytes prepended to the archive), minizip finds the data.
  if (!layout_known_) return locate_data(handle_->zip, member, offset, error);
  LocalHeader header;
  if (!read_local_header(handle_->bytes, member.local_header_offset, header, error)) return false;
  offset = header.data_offset;
  return true;
}

std::string ZipArchive::header_disagreement(const Member& member) const {
  if (!layout_known_) return {};
  LocalHeader header;
  std::string error;
  if (!read_local_header(handle_->bytes, member.local_header_offset, header, error)) return error;
  return local_header_disagreement(header, member.name, member.method, member.crc,
                                   member.compressed_size, member.size);
}

bool ZipArchive::copy_stored_bytes(const Member& member,
                                   const std::function<bool(std::string_view)>& sink,
                                   std::string& error) const {
  std::uint64_t offset = 0;
  if (!data_offset(member, offset, error)) return false;
  std::string chunk(static_cast<std::size_t>(std::min<std::uint64_t>(member.compressed_size, kReadChunk)),
                    '\0');
  for (std::uint64_t done = 0; done < member.compressed_size;) {
    const auto want = static_cast<std::size_t>(std::min<std::uint64_t>(member.compressed_size - done, kReadChunk));
    const std::size_t n = handle_->bytes.read_at(offset + done, chunk.data(), want);
    if (n < want) {
      error = fmt::format("the member's data ends after {} of the {} bytes it declares",
                          done + n, member.compressed_size);
      return false;
    }
    if (!sink(std::string_view(chunk.data(), n))) return false;
    done += n;
  }
  return true;
}

}  // namespace pt2lint
