// Checks a zip archive's layout from its central directory, for every member, before any
// member is read: PyTorch's reader (miniz) refuses archives whose members do not lie where
// the directory says, and a member pt2lint never reads must not hide that.
#pragma once

#include <string>

#include "io/readers/zip/zip_archive.h"

namespace pt2lint {

struct ArchiveLayoutProblem {
  const ZipArchive::Member* member = nullptr;  // the first member with the problem
  std::string what;                            // says what is wrong with it
  std::size_t members = 0;                     // how many members have this kind of problem
};

struct ArchiveLayoutReport {
  // A member outside the file, stored with a method PyTorch does not read, or a second
  // central-directory entry for another member's local header: PyTorch refuses these.
  ArchiveLayoutProblem damage;
  ArchiveLayoutProblem overlap;  // members whose data share bytes (the zip-bomb construction)
  ArchiveLayoutProblem oddity;   // directory records no PyTorch writer makes (Member::oddity)
};

// Per member, in local-header order: the local header offset lies before the central
// directory; offset + 30 + name + compressed size ends before the next member's header (else
// they overlap) and inside the file (else it is damaged); the method is stored or deflated.
// Nothing is read but the central directory, already in memory. An archive whose layout is
// not known (see ZipArchive::layout_known) gets an empty report.
ArchiveLayoutReport check_archive_layout(const ZipArchive& zip);

}  // namespace pt2lint
