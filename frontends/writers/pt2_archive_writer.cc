#include "frontends/writers/pt2_archive_writer.h"

#include <zip.h>

#include <cstdlib>
#include <memory>
#include <set>
#include <system_error>

#include <fmt/format.h>

namespace pt2lint {
namespace {

struct ZipCloser {
  void operator()(zip_t* archive) const { zip_discard(archive); }
};
using ZipHandle = std::unique_ptr<zip_t, ZipCloser>;

std::string zip_open_error(int code) {
  zip_error_t error;
  zip_error_init_with_code(&error, code);
  std::string text = zip_error_strerror(&error);
  zip_error_fini(&error);
  return text;
}

ZipHandle open_for_reading(const std::filesystem::path& path, std::string& error) {
  int code = 0;
  zip_t* archive = zip_open(path.c_str(), ZIP_RDONLY, &code);
  if (archive == nullptr) error = fmt::format("cannot open '{}': {}", path.string(), zip_open_error(code));
  return ZipHandle(archive);
}

// Adds `bytes` as a stored member; libzip copies the buffer only when the archive is closed,
// so `bytes` must outlive the zip_close call.
bool add_stored(zip_t* out, const std::string& name, const std::string& bytes) {
  zip_source_t* source = zip_source_buffer(out, bytes.data(), bytes.size(), 0);
  if (source == nullptr) return false;
  const zip_int64_t index = zip_file_add(out, name.c_str(), source, ZIP_FL_ENC_UTF_8);
  if (index < 0) {
    zip_source_free(source);
    return false;
  }
  return zip_set_file_compression(out, static_cast<zip_uint64_t>(index), ZIP_CM_STORE, 0) == 0;
}

}  // namespace

bool read_archive_member(const std::filesystem::path& archive, const std::string& member,
                         std::string& bytes) {
  std::string error;
  ZipHandle in = open_for_reading(archive, error);
  if (!in) return false;
  zip_stat_t stat;
  if (zip_stat(in.get(), member.c_str(), 0, &stat) != 0 || (stat.valid & ZIP_STAT_SIZE) == 0)
    return false;
  zip_file_t* file = zip_fopen(in.get(), member.c_str(), 0);
  if (file == nullptr) return false;
  bytes.resize(stat.size);
  const zip_int64_t read = zip_fread(file, bytes.data(), stat.size);
  zip_fclose(file);
  return read == static_cast<zip_int64_t>(stat.size);
}

std::string write_edited_archive(const std::filesystem::path& input,
                                 const std::filesystem::path& output, const ArchiveEdit& edit) {
  std::string error;
  ZipHandle in = open_for_reading(input, error);
  if (!in) return error;

  std::filesystem::path temporary = output;
  temporary += ".pt2lint-tmp";
  int code = 0;
  ZipHandle out(zip_open(temporary.c_str(), ZIP_CREATE | ZIP_TRUNCATE, &code));
  if (!out) return fmt::format("cannot create '{}': {}", temporary.string(), zip_open_error(code));

  std::set<std::string> written;
  const zip_int64_t count = zip_get_num_entries(in.get(), 0);
  for (zip_int64_t i = 0; i < count; ++i) {
    const auto index = static_cast<zip_uint64_t>(i);
    const char* raw_name = zip_get_name(in.get(), index, ZIP_FL_ENC_RAW);
    if (raw_name == nullptr) return fmt::format("cannot read member {} of '{}'", i, input.string());
    const std::string name = raw_name;
    auto replaced = edit.replaced_members.find(name);
    if (replaced != edit.replaced_members.end()) {
      if (!add_stored(out.get(), name, replaced->second))
        return fmt::format("cannot add '{}': {}", name, zip_strerror(out.get()));
      written.insert(name);
      continue;
    }
    // Copies the member's bytes as they are in the input (stored data is not re-encoded).
    zip_source_t* source = zip_source_zip(out.get(), in.get(), index, ZIP_FL_COMPRESSED, 0, -1);
    if (source == nullptr) return fmt::format("cannot copy '{}': {}", name, zip_strerror(out.get()));
    const zip_int64_t added = zip_file_add(out.get(), name.c_str(), source, ZIP_FL_ENC_RAW);
    if (added < 0) {
      zip_source_free(source);
      return fmt::format("cannot copy '{}': {}", name, zip_strerror(out.get()));
    }
    // Without this libzip may deflate a member it finds compressible; PyTorch stores all.
    if (zip_set_file_compression(out.get(), static_cast<zip_uint64_t>(added), ZIP_CM_STORE, 0) != 0)
      return fmt::format("cannot store '{}': {}", name, zip_strerror(out.get()));
    written.insert(name);
  }
  for (const auto& [name, bytes] : edit.replaced_members) {
    if (written.count(name) == 0 && !add_stored(out.get(), name, bytes))
      return fmt::format("cannot add '{}': {}", name, zip_strerror(out.get()));
  }
  if (zip_close(out.get()) != 0) {
    std::string message = fmt::format("cannot write '{}': {}", output.string(), zip_strerror(out.get()));
    std::error_code ignored;
    std::filesystem::remove(temporary, ignored);
    return message;
  }
  out.release();  // zip_close freed it
  std::error_code rename_error;
  std::filesystem::rename(temporary, output, rename_error);
  if (rename_error) return fmt::format("cannot write '{}': {}", output.string(), rename_error.message());
  return {};
}

}  // namespace pt2lint
