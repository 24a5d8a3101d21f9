#include "io/readers/zip/archive_integrity.h"

#include <algorithm>
#include <vector>

#include <fmt/format.h>

namespace pt2lint {
namespace {

constexpr std::uint64_t kLocalHeaderSize = 30;
// The longest name PyTorch's reader sees whole: its buffer is 512 bytes with the NUL.
constexpr std::size_t kMaxPyTorchNameBytes = 511;

void note(ArchiveLayoutProblem& problem, const ZipArchive::Member& member, std::string what) {
  if (problem.members++ == 0) {
    problem.member = &member;
    problem.what = std::move(what);
  }
}

}  // namespace

ArchiveLayoutReport check_archive_layout(const ZipArchive& zip) {
  ArchiveLayoutReport report;
  for (const auto& m : zip.members()) {
    if (!m.oddity.empty()) note(report.oddity, m, m.oddity);
    if (!m.refused_by_pytorch.empty()) {
      note(report.damage, m, m.refused_by_pytorch);
    } else if (m.name.size() > kMaxPyTorchNameBytes) {
      note(report.damage, m,
           fmt::format("its name is {} bytes long; PyTorch's reader copies names into a "
                       "512-byte buffer (MZ_ZIP_MAX_ARCHIVE_FILENAME_SIZE), so it reads the "
                       "name cut short and cannot find the member",
                       m.name.size()));
    }
  }
  if (report.damage.member != nullptr || !zip.layout_known()) return report;
  const std::uint64_t directory = zip.central_directory_offset();
  const std::uint64_t file_size = zip.archive_size();

  std::vector<const ZipArchive::Member*> by_offset;
  by_offset.reserve(zip.members().size());
  for (const auto& m : zip.members()) by_offset.push_back(&m);
  std::stable_sort(by_offset.begin(), by_offset.end(), [](const auto* a, const auto* b) {
    return a->local_header_offset < b->local_header_offset;
  });

  for (std::size_t i = 0; i < by_offset.size(); ++i) {
    const ZipArchive::Member& m = *by_offset[i];
    if (m.method != 0 && m.method != 8) {
      note(report.damage, m,
           fmt::format("it is compressed with method {}; PyTorch's reader handles only stored "
                       "(0) and deflated (8) members",
                       m.method));
      continue;
    }
    if (m.local_header_offset >= file_size) {
      note(report.damage, m,
           fmt::format("its local header offset {} lies past the end of the file ({} bytes)",
                       m.local_header_offset, file_size));
      continue;
    }
    if (m.local_header_offset >= directory) {
      note(report.damage, m,
           fmt::format("its local header offset {} lies inside the central directory, which "
                       "starts at {}",
                       m.local_header_offset, directory));
      continue;
    }
    // The least the member occupies: the local header's extra field may only add to it.
    const std::uint64_t end = m.local_header_offset + kLocalHeaderSize + m.name.size() +
                              m.compressed_size;
    if (end > file_size || end < m.local_header_offset) {
      note(report.damage, m,
           fmt::format("its header and {} bytes of data, from offset {}, run past the end of "
                       "the file ({} bytes)",
                       m.compressed_size, m.local_header_offset, file_size));
      continue;
    }
    const bool last = i + 1 == by_offset.size();
    const std::uint64_t next = last ? directory : by_offset[i + 1]->local_header_offset;
    if (!last && next == m.local_header_offset) {
      // The later entry in directory order is the one added over an existing member.
      note(report.damage, *by_offset[i + 1],
           fmt::format("its central-directory entry points at the local header of member '{}' "
                       "(offset {}), so it has no bytes of its own",
                       m.name, next));
      continue;
    }
    if (end > next) {
      note(report.overlap, m,
           last ? fmt::format("its data (offset {} to {}) runs into the central directory, "
                              "which starts at {}",
                              m.local_header_offset, end, directory)
                : fmt::format("its data (offset {} to {}) overlaps member '{}', whose local "
                              "header starts at {}",
                              m.local_header_offset, end, by_offset[i + 1]->name, next));
    }
  }
  return report;
}

}  // namespace pt2lint
