// Reading a member of an opened archive: its data whole (stored or deflated, within the
// caller's cap and the archive's inflate budget), or its stored bytes in chunks for copying.
#include <zlib.h>

#include <algorithm>

#include <fmt/format.h>

#include "io/readers/zip/crc32_fold.h"
#include "io/readers/zip/zip_archive.h"
#include "io/readers/zip/zip_archive_handle.h"
#include "io/readers/zip/zip_local_header.h"

namespace pt2lint {
namespace {

// Deflate cannot expand data by more than about 1032:1; a declared size beyond that is a lie.
constexpr std::uint64_t kMaxDeflateRatio = 1032;
constexpr std::uint16_t kStored = 0;
constexpr std::uint16_t kDeflated = Z_DEFLATED;
constexpr std::size_t kReadChunk = std::size_t{1} << 20;

// Positions minizip on `member` and checks its local header against the central directory;
// returns where its stored bytes start.
Expected<std::uint64_t> locate_data(unzFile zip, const ZipArchive::Member& member) {
  const unz64_file_pos position{member.directory_offset, member.index};
  int status = unzGoToFilePos64(zip, &position);
  int method = 0;
  int level = 0;
  if (status == UNZ_OK) status = unzOpenCurrentFile2(zip, &method, &level, /*raw=*/1);
  if (status != UNZ_OK) {
    return Status::error(fmt::format("the member cannot be opened: {}", minizip_status_text(status)));
  }
  const std::uint64_t offset = unzGetCurrentFileZStreamPos64(zip);
  unzCloseCurrentFile(zip);
  return offset;
}

// Inflates `compressed` bytes of raw deflate at `offset` into out[0, size); returns how many
// bytes it produced, and fails when the stream is corrupt.
Expected<std::uint64_t> inflate_member(ArchiveBytes& bytes, std::uint64_t offset, std::uint64_t compressed, char* out,
                                       std::uint64_t size) {
  z_stream z{};
  if (inflateInit2(&z, -MAX_WBITS) != Z_OK) return Status::error("zlib cannot be initialised");
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
    return Status::error(fmt::format("the member's data cannot be read: {}", minizip_status_text(status)));
  }
  return done;
}

}  // namespace

bool ZipArchive::crc_matches(const Member& member, std::string_view bytes) {
  return crc32_of(0, bytes.data(), bytes.size()) == member.crc;
}

Status ZipArchive::read(const Member& member, std::uint64_t max_bytes, PaddedBytes& out, Crc crc) const {
  if (member.size > max_bytes) {
    return Status::error(
        fmt::format("the member is {} bytes, more than the limit of {} bytes", member.size, max_bytes));
  }
  if (member.compressed_size > archive_size_) {
    return Status::error(
        fmt::format("the member declares {} compressed bytes but the whole archive is {} "
                    "bytes",
                    member.compressed_size, archive_size_));
  }
  if (member.method == kStored && member.size != member.compressed_size) {
    return Status::error(
        fmt::format("the member is stored uncompressed but declares {} bytes of data and "
                    "{} bytes in the archive",
                    member.size, member.compressed_size));
  }
  if (member.method != kStored && member.method != kDeflated) {
    return Status::error(
        fmt::format("the member uses compression method {}; PyTorch archives store their "
                    "members, and pt2lint reads stored and deflated ones",
                    member.method));
  }
  if (member.method == kDeflated && member.size / kMaxDeflateRatio > member.compressed_size + 1) {
    return Status::error(
        fmt::format("the member declares {} bytes compressed into {}, more than any "
                    "compression achieves",
                    member.size, member.compressed_size));
  }
  if (member.method == kDeflated) {
    const std::uint64_t budget = std::max(kMinInflateBudget, kInflateBudgetRatio * archive_size_);
    if (member.size > budget - std::min(budget, inflated_)) {
      return Status::error(
          fmt::format("inflating it would take the archive's deflated members past {} bytes, "
                      "the budget for a {}-byte file (a deflate bomb?); torch.export.save "
                      "stores every member uncompressed",
                      budget, archive_size_));
    }
    inflated_ += member.size;
  }
  Expected<std::uint64_t> offset = data_offset(member);
  if (!offset.ok()) return offset.status();
  if (!out.allocate(static_cast<std::size_t>(member.size))) {
    return Status::error(fmt::format("cannot allocate {} bytes for the member", member.size));
  }
  std::uint64_t done = 0;
  if (member.method == kStored) {
    // Straight from the archive into the caller's buffer.
    done = handle_->bytes.read_at(offset.value(), out.data(), static_cast<std::size_t>(member.size));
  } else {
    Expected<std::uint64_t> inflated =
        inflate_member(handle_->bytes, offset.value(), member.compressed_size, out.data(), member.size);
    if (!inflated.ok()) {
      out.shrink(0);
      return inflated.status();
    }
    done = inflated.value();
  }
  if (done < member.size) {
    out.shrink(0);
    return Status::error(fmt::format("the member's data ends after {} of the {} bytes it declares", done, member.size));
  }
  // A deflated member is checked here always: its CRC-32 is the only check of the decoding.
  if ((crc == Crc::kCheck || member.method != kStored) && !crc_matches(member, out.view())) {
    out.shrink(0);
    return Status::error(std::string(kCorruptMemberError));
  }
  return {};
}

Expected<std::uint64_t> ZipArchive::data_offset(const Member& member) const {
  // Without a known layout (bytes prepended to the archive), minizip finds the data.
  if (!layout_known_) return locate_data(handle_->zip, member);
  Expected<LocalHeader> header = read_local_header(handle_->bytes, member.local_header_offset);
  if (!header.ok()) return header.status();
  return header->data_offset;
}

Status ZipArchive::check_local_header(const Member& member) const {
  if (!layout_known_) return {};
  Expected<LocalHeader> header = read_local_header(handle_->bytes, member.local_header_offset);
  if (!header.ok()) return header.status();
  return pt2lint::check_local_header(header.value(), member.name, member.method, member.crc, member.compressed_size,
                                     member.size);
}

Status ZipArchive::copy_stored_bytes(const Member& member, const std::function<bool(std::string_view)>& sink) const {
  Expected<std::uint64_t> offset = data_offset(member);
  if (!offset.ok()) return offset.status();
  std::string chunk(static_cast<std::size_t>(std::min<std::uint64_t>(member.compressed_size, kReadChunk)), '\0');
  for (std::uint64_t done = 0; done < member.compressed_size;) {
    const auto want = static_cast<std::size_t>(std::min<std::uint64_t>(member.compressed_size - done, kReadChunk));
    const std::size_t n = handle_->bytes.read_at(offset.value() + done, chunk.data(), want);
    if (n < want) {
      return Status::error(
          fmt::format("the member's data ends after {} of the {} bytes it declares", done + n, member.compressed_size));
    }
    if (!sink(std::string_view(chunk.data(), n))) {
      return Status::error("the copy was stopped: the member could not be written");
    }
    done += n;
  }
  return {};
}

}  // namespace pt2lint
