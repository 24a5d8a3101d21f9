#include "frontends/load_file.h"

#include <cerrno>
#include <cstdio>
#include <cstring>
#include <memory>
#include <string>
#include <system_error>

#include <fmt/format.h>

#include "frontends/bare_json_loader.h"
#include "frontends/load_bytes.h"
#include "frontends/load_context.h"
#include "frontends/load_rules.h"
#include "frontends/textproto_loader.h"
#include "frontends/zip_archive.h"
#include "frontends/zip_loader.h"

namespace pt2lint {
namespace {

enum class Content { kEmpty, kZip, kTextproto, kJson, kUnknown };

bool has_extension(std::string_view name, std::string_view extension) {
  return name.size() >= extension.size() &&
         name.substr(name.size() - extension.size()) == extension;
}

// By content first: a .pt2 renamed .json is still a zip.
Content classify(std::string_view head, std::string_view name) {
  if (head.empty()) return Content::kEmpty;
  if (head.substr(0, 4) == std::string_view("PK\3\4", 4) ||
      head.substr(0, 4) == std::string_view("PK\5\6", 4)) {
    return Content::kZip;
  }
  if (has_extension(name, ".textproto") || has_extension(name, ".pbtxt")) {
    return Content::kTextproto;
  }
  if (head.substr(0, 3) == "\xEF\xBB\xBF") head.remove_prefix(3);
  const auto first = head.find_first_not_of(" \t\r\n");
  if (first != std::string_view::npos && head[first] == '{') return Content::kJson;
  return Content::kUnknown;
}

std::string hex_prefix(std::string_view head) {
  std::string out;
  for (std::size_t i = 0; i < head.size() && i < 8; ++i) {
    if (i) out += ' ';
    out += fmt::format("{:02x}", static_cast<unsigned char>(head[i]));
  }
  return out;
}

struct FileCloser {
  void operator()(std::FILE* f) const { std::fclose(f); }
};
using File = std::unique_ptr<std::FILE, FileCloser>;

// The whole file, bounded; reports and returns false when it is too large or unreadable.
bool read_whole(std::FILE* file, std::uint64_t size, std::uint64_t limit, std::string_view name,
                LoadReporter& reporter, PaddedBytes& out) {
  if (size > limit) {
    reporter.report(kMalformedProgram, "",
                    fmt::format("'{}' is {} bytes, more than the limit of {} bytes", name, size,
                                limit));
    return false;
  }
  if (!out.allocate(static_cast<std::size_t>(size))) {
    reporter.report(kMalformedProgram, "",
                    fmt::format("cannot allocate {} bytes to read '{}'", size, name));
    return false;
  }
  std::rewind(file);
  const std::size_t n = std::fread(out.data(), 1, static_cast<std::size_t>(size), file);
  out.shrink(n);  // a file that shrank while being read is read as it now is
  return true;
}

class Loader {
 public:
  Loader(const LoadOptions& options, DiagnosticSink& sink)
      : options_(options),
        reporter_(sink),
        json_(JsonReadOptions{options.max_json_depth}),
        context_{options_, reporter_, json_} {}

  LoadOutcome finish(LoadOutcome outcome) {
    reporter_.finish();
    return outcome;
  }

  void zip_failed(std::string_view name, const std::string& error) {
    if (error == kDuplicateMemberError) {
      reporter_.report(kUnsafeArchiveMember, "",
                       fmt::format("'{}': {}; pt2lint reads none of it", name, error));
      return;
    }
    reporter_.report(kMalformedProgram, "",
                     fmt::format("'{}' starts like a zip archive but cannot be read: {}", name,
                                 error),
                     {}, {},
                     "the archive may be truncated or damaged; a .pt2 file is a complete zip "
                     "archive");
  }

  void unknown(std::string_view name, std::string_view head) {
    reporter_.report(kMalformedProgram, "",
                     fmt::format("'{}' is not a .pt2 archive, a program JSON or a textproto (it "
                                 "starts with bytes {})",
                                 name, hex_prefix(head)));
  }

  void empty(std::string_view name) {
    reporter_.report(kMalformedProgram, "", fmt::format("'{}' is empty", name));
  }

  // Folder walks pass every .json they meet; only programs are reported on.
  bool skip_unknown(std::string_view name) const {
    return options_.found_by_folder_walk && has_extension(name, ".json");
  }

  const LoadOptions& options_;
  LoadReporter reporter_;
  JsonToProto json_;
  LoadContext context_;
};

}  // namespace

LoadOutcome load_file(const std::filesystem::path& path, const LoadOptions& options,
                      LoadedFile& out, DiagnosticSink& sink) {
  const std::string name = path.string();
  std::error_code ec;
  if (std::filesystem::is_directory(path, ec)) {
    out.error = fmt::format("cannot read '{}': it is a directory", name);
    return LoadOutcome::kUnreadable;
  }
  File file(std::fopen(path.c_str(), "rb"));
  if (!file) {
    out.error = fmt::format("cannot open '{}': {}", name, std::strerror(errno));
    return LoadOutcome::kUnreadable;
  }
  const auto size = std::filesystem::file_size(path, ec);
  if (ec) {
    out.error = fmt::format("cannot read '{}': {}", name, ec.message());
    return LoadOutcome::kUnreadable;
  }
  char head_buffer[4096];
  const std::size_t head_size = std::fread(head_buffer, 1, sizeof head_buffer, file.get());
  if (head_size == 0 && std::ferror(file.get())) {
    out.error = fmt::format("cannot read '{}': {}", name, std::strerror(errno));
    return LoadOutcome::kUnreadable;
  }
  const std::string_view head(head_buffer, head_size);

  Loader loader(options, sink);
  switch (classify(head, name)) {
    case Content::kEmpty: loader.empty(name); break;
    case Content::kZip: {
      file.reset();  // libzip opens the file itself and reads only what it needs
      std::string error;
      auto zip = ZipArchive::open_file(path, options.max_archive_members, error);
      if (!zip) {
        loader.zip_failed(name, error);
        break;
      }
      load_zip(*zip, name, loader.context_, out.programs);
      break;
    }
    case Content::kTextproto: {
      PaddedBytes text;
      if (read_whole(file.get(), size, options.max_program_json_bytes, name, loader.reporter_,
                     text)) {
        load_textproto(text.view(), name, loader.context_, out.programs);
      }
      break;
    }
    case Content::kJson: {
      PaddedBytes json;
      if (read_whole(file.get(), size, options.max_program_json_bytes, name, loader.reporter_,
                     json) &&
          !load_bare_json(json, name, loader.context_, out.programs)) {
        return loader.finish(LoadOutcome::kSkipped);
      }
      break;
    }
    case Content::kUnknown:
      if (loader.skip_unknown(name)) return loader.finish(LoadOutcome::kSkipped);
      loader.unknown(name, head);
      break;
  }
  return loader.finish(LoadOutcome::kLoaded);
}

LoadOutcome load_bytes(std::string_view bytes, std::string_view name, const LoadOptions& options,
                       LoadedFile& out, DiagnosticSink& sink) {
  Loader loader(options, sink);
  const std::string_view head = bytes.substr(0, 4096);
  switch (classify(head, name)) {
    case Content::kEmpty: loader.empty(name); break;
    case Content::kZip: {
      std::string error;
      auto zip = ZipArchive::open_memory(bytes, options.max_archive_members, error);
      if (!zip) {
        loader.zip_failed(name, error);
        break;
      }
      load_zip(*zip, name, loader.context_, out.programs);
      break;
    }
    case Content::kTextproto:
      if (bytes.size() > options.max_program_json_bytes) {
        loader.reporter_.report(kMalformedProgram, "",
                                fmt::format("'{}' is {} bytes, more than the limit of {} bytes",
                                            name, bytes.size(),
                                            options.max_program_json_bytes));
        break;
      }
      load_textproto(bytes, name, loader.context_, out.programs);
      break;
    case Content::kJson: {
      if (bytes.size() > options.max_program_json_bytes) {
        loader.reporter_.report(kMalformedProgram, "",
                                fmt::format("'{}' is {} bytes, more than the limit of {} bytes",
                                            name, bytes.size(),
                                            options.max_program_json_bytes));
        break;
      }
      PaddedBytes json;
      if (!json.assign(bytes)) {
        loader.reporter_.report(kMalformedProgram, "",
                                fmt::format("cannot allocate {} bytes to read '{}'",
                                            bytes.size(), name));
        break;
      }
      if (!load_bare_json(json, name, loader.context_, out.programs)) {
        return loader.finish(LoadOutcome::kSkipped);
      }
      break;
    }
    case Content::kUnknown:
      if (loader.skip_unknown(name)) return loader.finish(LoadOutcome::kSkipped);
      loader.unknown(name, head);
      break;
  }
  return loader.finish(LoadOutcome::kLoaded);
}

}  // namespace pt2lint
