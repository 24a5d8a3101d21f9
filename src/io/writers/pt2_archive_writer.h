// Writes a copy of a zip archive (PT2 or legacy layout) in which some members are replaced:
// every other member is copied through byte for byte, in its original order. Members are
// stored uncompressed, as PyTorch stores them; the 64-byte record alignment PyTorch adds is
// not reproduced because torch.export.load does not need it.
#pragma once

#include <filesystem>
#include <map>
#include <string>

#include "support/status.h"

namespace pt2lint {

struct ArchiveEdit {
  // Full member name (with the root folder, e.g. "model/models/model.json") -> new bytes.
  // A name the input lacks is appended at the end.
  std::map<std::string, std::string> replaced_members;
};

// `output` is written through a temporary file next to it, so a failed write never leaves a
// half-written archive behind.
Status write_edited_archive(const std::filesystem::path& input, const std::filesystem::path& output,
                            const ArchiveEdit& edit);

// The bytes of one member of a zip archive; false when it is absent or unreadable.
bool read_archive_member(const std::filesystem::path& archive, const std::string& member,
                         std::string& bytes);

}  // namespace pt2lint
