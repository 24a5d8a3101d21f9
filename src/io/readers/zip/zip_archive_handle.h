// What zip_archive.cc (opening an archive) and zip_member_read.cc (reading its members) share:
// the open minizip handle over the archive's bytes, and the words for minizip's status codes.
#pragma once

#include <minizip/unzip.h>

#include <string>

#include "io/readers/zip/archive_bytes.h"
#include "io/readers/zip/zip_archive.h"

namespace pt2lint {

struct ZipArchive::Handle {
  ArchiveBytes bytes;
  unzFile zip = nullptr;
  ~Handle() {
    if (zip != nullptr) unzClose(zip);
  }
};

// What a minizip (or zlib) status code means, for the end of a message.
std::string minizip_status_text(int code);

}  // namespace pt2lint
