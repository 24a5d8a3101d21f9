// Helpers shared by the readers' tests: in-memory zips built with libzip, and finding
// queries over a CollectingSink.
#pragma once

#include <sys/stat.h>
#include <zip.h>

#include <cstdint>
#include <stdexcept>
#include <string>
#include <string_view>
#include <vector>

#include "io/readers/load_bytes.h"
#include "io/readers/load_file.h"
#include "core/diagnostic_sink.h"

namespace pt2lint::testing_support {

struct ZipEntry {
  std::string name;
  std::string data;
  bool symlink = false;
  bool compress = false;
};

// Builds a zip in memory; entries are stored (like PyTorch's writer) unless `compress`.
inline std::string make_zip(const std::vector<ZipEntry>& entries) {
  zip_error_t error;
  zip_error_init(&error);
  zip_source_t* out = zip_source_buffer_create(nullptr, 0, 0, &error);
  zip_source_keep(out);
  zip_t* za = zip_open_from_source(out, ZIP_TRUNCATE, &error);
  if (za == nullptr) throw std::runtime_error("zip_open_from_source failed");
  for (const auto& e : entries) {
    // libzip copies nothing until zip_close, so the data must outlive this loop: it does.
    zip_source_t* src = zip_source_buffer(za, e.data.data(), e.data.size(), 0);
    const zip_int64_t index = zip_file_add(za, e.name.c_str(), src, ZIP_FL_ENC_UTF_8);
    if (index < 0) throw std::runtime_error("zip_file_add failed: " + e.name);
    zip_set_file_compression(za, static_cast<zip_uint64_t>(index),
                             e.compress ? ZIP_CM_DEFLATE : ZIP_CM_STORE, 0);
    if (e.symlink) {
      zip_file_set_external_attributes(za, static_cast<zip_uint64_t>(index), 0, ZIP_OPSYS_UNIX,
                                       static_cast<zip_uint32_t>(S_IFLNK | 0777) << 16);
    }
  }
  if (zip_close(za) != 0) throw std::runtime_error("zip_close failed");
  zip_stat_t st;
  zip_source_stat(out, &st);
  std::string bytes(st.size, '\0');
  zip_source_open(out);
  zip_source_read(out, bytes.data(), st.size);
  zip_source_close(out);
  zip_source_free(out);
  zip_error_fini(&error);
  return bytes;
}

inline std::uint32_t read_u32(const std::string& b, std::size_t at) {
  return static_cast<std::uint32_t>(static_cast<unsigned char>(b[at])) |
         static_cast<std::uint32_t>(static_cast<unsigned char>(b[at + 1])) << 8 |
         static_cast<std::uint32_t>(static_cast<unsigned char>(b[at + 2])) << 16 |
         static_cast<std::uint32_t>(static_cast<unsigned char>(b[at + 3])) << 24;
}
inline void write_u32(std::string& b, std::size_t at, std::uint32_t v) {
  for (int i = 0; i < 4; ++i) b[at + i] = static_cast<char>(v >> (8 * i) & 0xff);
}
// Offset of the first central-directory header ("PK\1\2") in a zip without ZIP64 records.
inline std::size_t central_directory(const std::string& b) {
  return b.find(std::string("PK\1\2", 4));
}

struct Loaded {
  LoadOutcome outcome;
  LoadedFile file;
  std::vector<Finding> findings;

  std::size_t count(std::string_view rule) const {
    std::size_t n = 0;
    for (const auto& f : findings) n += f.rule_name == rule;
    return n;
  }
  const Finding* first(std::string_view rule) const {
    for (const auto& f : findings) {
      if (f.rule_name == rule) return &f;
    }
    return nullptr;
  }
  std::string dump() const {
    std::string out;
    for (const auto& f : findings) {
      out += f.rule_name + " [" + f.program + "] " + f.location.archive_member + " " +
             f.location.json_path + ": " + f.message + "\n";
    }
    return out;
  }
};

inline Loaded load_memory(std::string_view bytes, std::string_view name = "input.pt2",
                          LoadOptions options = {}) {
  Loaded result;
  CollectingSink sink;
  result.outcome = load_bytes(bytes, name, options, result.file, sink);
  result.findings = sink.take();
  return result;
}

inline Loaded load_path(const std::string& path, LoadOptions options = {}) {
  Loaded result;
  CollectingSink sink;
  result.outcome = load_file(path, options, result.file, sink);
  result.findings = sink.take();
  return result;
}

}  // namespace pt2lint::testing_support
