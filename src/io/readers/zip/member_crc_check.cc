#include "io/readers/zip/member_crc_check.h"

#include <fmt/format.h>

#include <optional>

#include "io/readers/zip/archive_integrity.h"

#include "core/rule_catalogue.h"
#include "io/readers/zip/crc32_fold.h"

namespace pt2lint {
namespace {

bool in_folder(std::string_view name, std::string_view root, std::string_view folder) {
  return name.size() > root.size() + folder.size() && name.starts_with(root) &&
         name.substr(root.size()).starts_with(folder);
}

// Weights and constants records: read only with --verify-data (a model's bytes).
bool is_state_record(std::string_view name, std::string_view root) {
  return (in_folder(name, root, "data/weights/") || in_folder(name, root, "data/constants/")) &&
         !name.ends_with("_config.json");
}

// Members another check reads whole and checks the CRC-32 of (or reports unread): the
// programs, the configs, the version and format records, sample inputs and extra files.
bool read_by_other_checks(std::string_view name, std::string_view root) {
  if (!name.starts_with(root)) return false;
  const std::string_view inside = name.substr(root.size());
  return inside.starts_with("models/") || inside.starts_with("data/sample_inputs/") ||
         inside.starts_with("extra/") || inside == "archive_format" || inside == "archive_version" ||
         inside == ".data/version" || inside == "version" ||
         ((inside.starts_with("data/weights/") || inside.starts_with("data/constants/")) &&
          inside.ends_with("_config.json"));
}

// Whether the member's bytes have its declared CRC-32, or why that is unknown.
Expected<bool> crc_holds(const ZipArchive& zip, const ZipArchive::Member& member) {
  if (member.method == 0) {
    std::uint32_t crc = 0;
    const Status copied = zip.copy_stored_bytes(member, [&crc](std::string_view chunk) {
      crc = crc32_of(crc, chunk.data(), chunk.size());
      return true;
    });
    if (!copied.ok()) return copied;
    return crc == member.crc;
  }
  // A deflated member: its decoder checks the CRC-32, within the archive's inflate budget.
  PaddedBytes bytes;
  const Status read = zip.read(member, member.size, bytes);
  if (read.ok()) return true;
  if (read.message() == kCorruptMemberError) return false;
  return read;
}

}  // namespace

void check_unread_member_crcs(const ZipArchive& zip, std::string_view root, LoadContext& context) {
  const bool verify = context.options.verify_data;
  std::optional<bool> overlap;
  for (const ZipArchive::Member& m : zip.members()) {
    if (!m.unsafe.empty() || m.is_directory || read_by_other_checks(m.name, root)) continue;
    const bool record = is_state_record(m.name, root);
    if (!verify && (record || m.size > kMaxCheapCrcMemberBytes)) continue;
    const Expected<bool> holds = crc_holds(zip, m);
    if (!holds.ok()) {
      // Read failures of another kind (a header pointing nowhere, the inflate budget) are the
      // layout checks' to report; --verify-data says what it could not verify.
      if (verify) {
        context.reporter.report(
            kMemberNotChecked, "",
            fmt::format("archive member '{}' could not be verified (--verify-data): {}", m.name,
                        holds.status().message()),
            m.name);
      }
      continue;
    }
    if (holds.value()) continue;
    // Members whose data overlap read each other's bytes: the overlap warning is the one root
    // cause. Asked only on a mismatch, so a sound archive pays nothing for it.
    if (!overlap) overlap = check_archive_layout(zip).overlap.member != nullptr;
    if (*overlap) continue;
    context.reporter.report(
        kMemberCrcMismatch, "",
        fmt::format("archive member '{}' ({} bytes) does not match the CRC-32 {:08x} its central "
                    "directory declares: its bytes changed after the archive was written. "
                    "torch.export.load does not check CRCs (PyTorch builds miniz with "
                    "MINIZ_DISABLE_ZIP_READER_CRC32_CHECKS) and loads the damaged bytes as they are{}",
                    m.name, m.size, m.crc,
                    record ? ": the program runs on these numbers" : ""),
        m.name, {}, "copy or download the file again from its source, or export it again");
  }
}

}  // namespace pt2lint
