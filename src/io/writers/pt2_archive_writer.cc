#include "io/writers/pt2_archive_writer.h"

#include <minizip/zip.h>

#include <unistd.h>

#include <algorithm>
#include <cstdio>
#include <set>
#include <system_error>

#include <fmt/format.h>

#include "io/readers/padded_bytes.h"
#include "io/readers/zip/zip_archive.h"
#include "support/atomic_file.h"

namespace pt2lint {
namespace {

constexpr std::uint64_t kMaxMembers = 1'000'000;
constexpr std::uint64_t kZip64Threshold = 0xFFFFFFFFu;  // sizes past this need ZIP64 fields
constexpr std::size_t kCopyChunk = std::size_t{1} << 20;
// 1980-01-01 00:00, the earliest DOS date: a rewritten archive's bytes do not depend on when.
constexpr uLong kDosEpoch = (1u << 21) | (1u << 16);

zip_fileinfo member_info() {
  zip_fileinfo info{};
  info.dosDate = kDosEpoch;
  return info;
}

struct ZipCloser {
  void operator()(zipFile archive) const { zipClose(archive, nullptr); }
};
using ZipWriter = std::unique_ptr<void, ZipCloser>;

bool write_chunks(zipFile out, std::string_view bytes) {
  while (!bytes.empty()) {
    const std::size_t n = std::min(bytes.size(), kCopyChunk);
    if (zipWriteInFileInZip(out, bytes.data(), static_cast<unsigned>(n)) != ZIP_OK) return false;
    bytes.remove_prefix(n);
  }
  return true;
}

// Adds `bytes` as a stored member, as PyTorch's writer stores every member.
bool add_stored(zipFile out, const std::string& name, std::string_view bytes) {
  const zip_fileinfo info = member_info();
  if (zipOpenNewFileInZip64(out, name.c_str(), &info, nullptr, 0, nullptr, 0, nullptr,
                            /*method=*/0, /*level=*/0, bytes.size() >= kZip64Threshold) != ZIP_OK)
    return false;
  const bool written = write_chunks(out, bytes);
  return zipCloseFileInZip(out) == ZIP_OK && written;
}

// Copies a member's bytes as they are in the input, with its CRC and sizes: nothing is
// decoded or re-encoded, and a large weight is never held whole.
Status copy_member(const ZipArchive& in, const ZipArchive::Member& member, zipFile out) {
  const zip_fileinfo info = member_info();
  if (zipOpenNewFileInZip2_64(out, member.name.c_str(), &info, nullptr, 0, nullptr, 0, nullptr,
                              member.method, /*level=*/0, /*raw=*/1,
                              member.size >= kZip64Threshold) != ZIP_OK) {
    return Status::error(fmt::format("cannot copy '{}'", member.name));
  }
  bool written = true;
  const Status read = in.copy_stored_bytes(
      member, [&](std::string_view chunk) { return written = write_chunks(out, chunk); });
  if (zipCloseFileInZipRaw64(out, member.size, member.crc) != ZIP_OK || !written) {
    return Status::error(fmt::format("cannot copy '{}'", member.name));
  }
  if (!read.ok()) return Status::error(fmt::format("cannot copy '{}': {}", member.name, read.message()));
  return {};
}

// minizip's stdio functions on the AtomicFile's descriptor instead of a file it opens by name:
// the archive is written only where AtomicFile made its temporary.
voidpf open_descriptor(voidpf opaque, const void* /*name*/, int /*mode*/) {
  const int fd = ::dup(*static_cast<const int*>(opaque));
  if (fd < 0) return nullptr;
  FILE* file = ::fdopen(fd, "w+b");
  if (file == nullptr) ::close(fd);
  return file;
}

zipFile open_zip_on(const AtomicFile& file, int& fd) {
  fd = file.fd();
  zlib_filefunc64_def functions;
  fill_fopen64_filefunc(&functions);
  functions.zopen64_file = open_descriptor;
  functions.opaque = &fd;
  return zipOpen2_64(file.temporary().c_str(), APPEND_STATUS_CREATE, nullptr, &functions);
}

}  // namespace

bool read_archive_member(const std::filesystem::path& archive, const std::string& member,
                         std::string& bytes) {
  auto in = ZipArchive::open_file(archive, kMaxMembers);
  if (!in.ok()) return false;
  const ZipArchive::Member* found = in.value()->find(member);
  PaddedBytes data;
  if (found == nullptr || !in.value()->read(*found, found->size, data).ok()) return false;
  bytes.assign(data.view());
  return true;
}

Status write_edited_archive(const std::filesystem::path& input, const std::filesystem::path& output,
                            const ArchiveEdit& edit) {
  auto opened = ZipArchive::open_file(input, kMaxMembers);
  if (!opened.ok()) return Status::error(fmt::format("cannot open '{}': {}", input.string(), opened.message()));
  const ZipArchive* in = opened.value().get();

  // A member pt2lint did not read (a second copy of a name, a link) is never copied on: the
  // output would carry what the checks never saw.
  for (const ZipArchive::Member& member : in->members()) {
    if (!member.unsafe.empty()) {
      return Status::error(fmt::format("'{}' holds archive member '{}', which pt2lint does not read ({}); it "
                                       "writes no copy of such an archive",
                                       input.string(), member.name, member.unsafe));
    }
  }

  Expected<AtomicFile> created = AtomicFile::create(output);
  if (!created.ok()) return created.status();
  AtomicFile& file = created.value();
  int fd = -1;
  ZipWriter out(open_zip_on(file, fd));
  if (!out) return Status::error(fmt::format("cannot create '{}'", file.temporary().string()));
  auto fail = [&](Status failure) {
    out.reset();
    return failure;  // ~AtomicFile removes the temporary
  };

  std::set<std::string> written;
  for (const ZipArchive::Member& member : in->members()) {
    auto replaced = edit.replaced_members.find(member.name);
    if (replaced != edit.replaced_members.end()) {
      if (!add_stored(out.get(), member.name, replaced->second))
        return fail(Status::error(fmt::format("cannot add '{}'", member.name)));
    } else if (Status copied = copy_member(*in, member, out.get()); !copied.ok()) {
      return fail(copied);
    }
    written.insert(member.name);
  }
  for (const auto& [name, bytes] : edit.replaced_members) {
    if (written.count(name) == 0 && !add_stored(out.get(), name, bytes))
      return fail(Status::error(fmt::format("cannot add '{}'", name)));
  }
  if (zipClose(out.release(), nullptr) != ZIP_OK) {
    return Status::error(fmt::format("cannot write '{}' (is the disk full?); it is unchanged", output.string()));
  }
  return file.commit();
}

}  // namespace pt2lint
