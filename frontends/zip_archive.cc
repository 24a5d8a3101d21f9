#include "frontends/zip_archive.h"

#include <sys/stat.h>
#include <zip.h>

#include <system_error>
#include <unordered_map>

#include <fmt/format.h>

namespace pt2lint {

struct ZipArchive::Handle {
  zip_t* zip = nullptr;
  ~Handle() {
    if (zip != nullptr) zip_discard(zip);  // read-only: never write anything back
  }
};

namespace {

std::string libzip_error(int code) {
  zip_error_t error;
  zip_error_init_with_code(&error, code);
  std::string text = zip_error_strerror(&error);
  zip_error_fini(&error);
  return text;
}

std::string libzip_error(zip_error_t* error) { return zip_error_strerror(error); }

// Deflate cannot expand data by more than about 1032:1; a declared size beyond that is a lie.
constexpr std::uint64_t kMaxDeflateRatio = 1032;

std::string open_error(int code) {
  if (code == ZIP_ER_EXISTS) return std::string(kDuplicateMemberError);
  return fmt::format("not a readable zip archive: {}", libzip_error(code));
}

// No ZIP_CHECKCONS: it reads every local header, which for an archive of thousands of
// weight records costs more than the whole JSON parse. The members pt2lint reads are checked
// when read (sizes against the archive, CRC, short data); the rest are never trusted beyond
// their central-directory size.
constexpr int kOpenFlags = ZIP_RDONLY;

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
  std::error_code ec;
  const auto size = std::filesystem::file_size(path, ec);
  if (ec) {
    error = fmt::format("cannot read the archive: {}", ec.message());
    return nullptr;
  }
  int code = 0;
  auto handle = std::make_unique<Handle>();
  handle->zip = zip_open(path.c_str(), kOpenFlags, &code);
  if (handle->zip == nullptr) {
    error = open_error(code);
    return nullptr;
  }
  return finish_open(std::move(handle), size, max_members, error);
}

std::unique_ptr<ZipArchive> ZipArchive::open_memory(std::string_view bytes,
                                                    std::uint64_t max_members,
                                                    std::string& error) {
  zip_error_t zerror;
  zip_error_init(&zerror);
  zip_source_t* source = zip_source_buffer_create(bytes.data(), bytes.size(), 0, &zerror);
  if (source == nullptr) {
    error = fmt::format("cannot read the archive: {}", libzip_error(&zerror));
    zip_error_fini(&zerror);
    return nullptr;
  }
  auto handle = std::make_unique<Handle>();
  handle->zip = zip_open_from_source(source, kOpenFlags, &zerror);
  if (handle->zip == nullptr) {
    zip_source_free(source);  // zip_open_from_source takes ownership only on success
    error = open_error(zip_error_code_zip(&zerror));
    zip_error_fini(&zerror);
    return nullptr;
  }
  zip_error_fini(&zerror);
  return finish_open(std::move(handle), bytes.size(), max_members, error);
}

std::unique_ptr<ZipArchive> ZipArchive::finish_open(std::unique_ptr<Handle> handle,
                                                    std::uint64_t archive_size,
                                                    std::uint64_t max_members,
                                                    std::string& error) {
  zip_t* zip = handle->zip;
  const zip_int64_t count = zip_get_num_entries(zip, 0);
  if (count < 0) {
    error = "the archive's central directory cannot be read";
    return nullptr;
  }
  if (static_cast<std::uint64_t>(count) > max_members) {
    error = fmt::format("the archive has {} members, more than the limit of {}", count,
                        max_members);
    return nullptr;
  }
  std::unique_ptr<ZipArchive> archive(new ZipArchive(std::move(handle), archive_size));
  archive->members_.reserve(static_cast<std::size_t>(count));
  for (zip_int64_t i = 0; i < count; ++i) {
    const auto index = static_cast<zip_uint64_t>(i);
    zip_stat_t st;
    zip_stat_init(&st);
    if (zip_stat_index(zip, index, 0, &st) != 0 || (st.valid & ZIP_STAT_NAME) == 0) {
      error = fmt::format("member {} of the central directory cannot be read: {}", i,
                          zip_strerror(zip));
      return nullptr;
    }
    Member m;
    m.name = st.name;
    m.index = index;
    m.size = (st.valid & ZIP_STAT_SIZE) ? st.size : 0;
    m.compressed_size = (st.valid & ZIP_STAT_COMP_SIZE) ? st.comp_size : 0;
    m.method = (st.valid & ZIP_STAT_COMP_METHOD) ? st.comp_method : 0;
    m.is_directory = !m.name.empty() && m.name.back() == '/';
    m.unsafe = unsafe_member_name_reason(m.name);
    zip_uint8_t opsys = 0;
    zip_uint32_t attributes = 0;
    if (m.unsafe.empty() &&
        zip_file_get_external_attributes(zip, index, 0, &opsys, &attributes) == 0 &&
        opsys == ZIP_OPSYS_UNIX && ((attributes >> 16) & S_IFMT) == S_IFLNK) {
      m.unsafe = "the member is a symbolic link";
    }
    archive->members_.push_back(std::move(m));
  }
  // After the loop, so the names no longer move.
  std::unordered_map<std::string_view, std::uint64_t> first_index;
  first_index.reserve(archive->members_.size());
  for (auto& m : archive->members_) {
    auto [it, inserted] = first_index.emplace(m.name, m.index);
    if (!inserted && m.unsafe.empty()) {
      m.unsafe = fmt::format("{} (the first copy is member {})", kDuplicateMemberError,
                             it->second);
    }
  }
  return archive;
}

const ZipArchive::Member* ZipArchive::find(std::string_view name) const {
  for (const auto& m : members_) {
    if (m.unsafe.empty() && m.name == name) return &m;
  }
  return nullptr;
}

bool ZipArchive::read(const Member& member, std::uint64_t max_bytes, PaddedBytes& out,
                      std::string& error) const {
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
  if (member.method == ZIP_CM_STORE && member.size != member.compressed_size) {
    error = fmt::format("the member is stored uncompressed but declares {} bytes of data and "
                        "{} bytes in the archive",
                        member.size, member.compressed_size);
    return false;
  }
  if (member.method != ZIP_CM_STORE &&
      member.size / kMaxDeflateRatio > member.compressed_size + 1) {
    error = fmt::format("the member declares {} bytes compressed into {}, more than any "
                        "compression achieves",
                        member.size, member.compressed_size);
    return false;
  }
  if (!out.allocate(static_cast<std::size_t>(member.size))) {
    error = fmt::format("cannot allocate {} bytes for the member", member.size);
    return false;
  }
  zip_file_t* file = zip_fopen_index(handle_->zip, member.index, 0);
  if (file == nullptr) {
    error = fmt::format("the member cannot be opened: {}", zip_strerror(handle_->zip));
    return false;
  }
  std::uint64_t done = 0;
  bool ok = true;
  while (done < member.size) {
    const zip_int64_t n = zip_fread(file, out.data() + done, member.size - done);
    if (n < 0) {
      error = fmt::format("the member's data cannot be read: {}",
                          libzip_error(zip_file_get_error(file)));
      ok = false;
      break;
    }
    if (n == 0) {
      error = fmt::format("the member's data ends after {} of the {} bytes it declares", done,
                          member.size);
      ok = false;
      break;
    }
    done += static_cast<std::uint64_t>(n);
  }
  if (ok) {
    // Reading to the end makes libzip verify the CRC and shows data beyond the declared size.
    char extra;
    const zip_int64_t n = zip_fread(file, &extra, 1);
    if (n < 0) {
      error = fmt::format("the member's data is corrupt: {}",
                          libzip_error(zip_file_get_error(file)));
      ok = false;
    } else if (n > 0) {
      error = fmt::format("the member holds more data than the {} bytes it declares",
                          member.size);
      ok = false;
    }
  }
  zip_fclose(file);
  if (!ok) out.shrink(0);
  return ok;
}

}  // namespace pt2lint
