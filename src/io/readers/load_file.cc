#include "io/readers/load_file.h"

#include <cerrno>
#include <cstdio>
#include <cstring>
#include <memory>
#include <string>
#include <system_error>

#include <fmt/format.h>

#include "io/readers/json/bare_json_loader.h"
#include "io/readers/load_bytes.h"
#include "io/readers/load_context.h"
#include "core/rule_catalogue.h"
#include "io/readers/textproto_loader.h"
#include "io/readers/zip/zip_archive.h"
#include "io/readers/zip/zip_loader.h"
#include "support/huge_pages.h"

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
// A file over the size bound is reported instead of read.
bool within_limit(std::uint64_t size, std::uint64_t limit, std::string_view name,
                  LoadReporter& reporter) {
  if (size <= limit) return true;
  reporter.report(kMalformedProgram, "",
                  fmt::format("'{}' is {} bytes, more than the limit of {} bytes", name, size,
                              limit));
  return false;
}

void report_cannot_allocate(std::uint64_t size, std::string_view name, LoadReporter& reporter) {
  reporter.report(kMalformedProgram, "",
                  fmt::format("cannot allocate {} bytes to read '{}'", size, name));
}

bool read_whole(std::FILE* file, std::uint64_t size, std::uint64_t limit, std::string_view name,
                LoadReporter& reporter, PaddedBytes& out) {
  if (!within_limit(size, limit, name, reporter)) return false;
  if (!out.allocate(static_cast<std::size_t>(size))) {
    report_cannot_allocate(size, name, reporter);
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
        reporter_(sink, options.rule_filter),
        json_(JsonReadOptions{options.max_json_depth}),
        context_{options_, reporter_, json_} {}

  LoadOutcome finish(LoadOutcome outcome) {
    reporter_.finish();
    return outcome;
  }

  void zip_failed(std::string_view name, std::string_view why) {
    reporter_.report(kMalformedProgram, "",
                     fmt::format("'{}' starts like a zip archive but cannot be read: {}", name, why),
                     {}, {},
                     "the archive may be truncated or damaged; a .pt2 file is a complete zip "
                     "archive");
  }

  void unknown(std::string_view name, std::string_view head) {
    reporter_.report(kMalformedProgram, "",
                     fmt::format("'{}' is not a .pt2 archive or a program JSON (it starts with "
                                 "bytes {}); a textproto is read only from a file named .textproto "
                                 "or .pbtxt",
                                 name, hex_prefix(head)));
  }

  void empty(std::string_view name) {
    reporter_.report(kMalformedProgram, "", fmt::format("'{}' is empty", name));
  }

  // Folder walks pass every .json they meet; only programs are reported on.
  bool skip_unknown(std::string_view name) const {
    return options_.found_by_folder_walk && has_extension(name, ".json");
  }

  // Loads whatever `head` (the first bytes) says the file is. `open_zip()` opens the
  // whole file as an archive, which reads only what it needs; `read_whole(bytes)` reads it
  // into memory, reporting and returning false when it cannot.
  template <class OpenZip, class ReadWhole>
  LoadOutcome load(std::string_view head, std::string_view name, OpenZip open_zip,
                   ReadWhole read_whole, ProgramOutput& programs) {
    switch (classify(head, name)) {
      case Content::kEmpty: empty(name); break;
      case Content::kZip: {
        auto zip = open_zip();
        if (!zip.ok()) {
          zip_failed(name, zip.message());
          break;
        }
        load_zip(*zip.value(), name, context_, programs);
        break;
      }
      case Content::kTextproto: {
        PaddedBytes text;
        if (read_whole(text)) load_textproto(text.view(), name, context_, programs);
        break;
      }
      case Content::kJson: {
        PaddedBytes json;
        if (read_whole(json) && !load_bare_json(json, name, context_, programs)) {
          return finish(LoadOutcome::kSkipped);
        }
        break;
      }
      case Content::kUnknown:
        if (skip_unknown(name)) return finish(LoadOutcome::kSkipped);
        unknown(name, head);
        break;
    }
    return finish(LoadOutcome::kLoaded);
  }

  const LoadOptions& options_;
  LoadReporter reporter_;
  JsonToProto json_;
  LoadContext context_;
};

// Both load_file variants: one parsing path, whichever way the programs are stored. Fails
// (the outcome kUnreadable) when the file cannot be read at all.
Expected<LoadOutcome> load_file_into(const std::filesystem::path& path, const LoadOptions& options,
                                     ProgramOutput& programs, DiagnosticSink& sink) {
  const std::string name = path.string();
  std::error_code ec;
  if (std::filesystem::is_directory(path, ec)) {
    return Status::error(fmt::format("cannot read '{}': it is a directory", name));
  }
  File file(std::fopen(path.c_str(), "rb"));
  if (!file) return Status::error(fmt::format("cannot open '{}': {}", name, std::strerror(errno)));
  const auto size = std::filesystem::file_size(path, ec);
  if (ec) return Status::error(fmt::format("cannot read '{}': {}", name, ec.message()));
  char head_buffer[4096];
  const std::size_t head_size = std::fread(head_buffer, 1, sizeof head_buffer, file.get());
  if (head_size == 0 && std::ferror(file.get())) {
    return Status::error(fmt::format("cannot read '{}': {}", name, std::strerror(errno)));
  }
  const std::string_view head(head_buffer, head_size);

  Loader loader(options, sink);
  return loader.load(
      head, name,
      [&] {
        file.reset();  // the zip reader opens the file itself and reads only what it needs
        return ZipArchive::open_file(path, options.max_archive_members);
      },
      [&](PaddedBytes& bytes) {
        return read_whole(file.get(), size, options.max_program_json_bytes, name,
                          loader.reporter_, bytes);
      },
      programs);
}

// The outcome, with `out.error` saying why when the file is unreadable: LoadedFile and
// ArenaLoadedFile carry it as data, beside the programs.
template <class Loaded>
LoadOutcome outcome_of(Expected<LoadOutcome> loaded, Loaded& out) {
  if (loaded.ok()) return loaded.value();
  out.error = loaded.message();
  return LoadOutcome::kUnreadable;
}

}  // namespace

LoadOutcome load_file(const std::filesystem::path& path, const LoadOptions& options,
                      LoadedFile& out, DiagnosticSink& sink) {
  ProgramOutput programs(out.programs);
  return outcome_of(load_file_into(path, options, programs, sink), out);
}

LoadOutcome load_file(const std::filesystem::path& path, const LoadOptions& options,
                      ArenaLoadedFile& out, DiagnosticSink& sink) {
  // The first block holds a small program whole; later blocks grow to 8 MB, so the IR of a
  // 5,000-node program (~25 MB) takes a handful of blocks instead of ~166 k mallocs.
  // Blocks from 2 MB up are huge-page backed (see huge_pages.h); the first one is not, so a
  // small program faults in only the 4 KB pages it touches.
  google::protobuf::ArenaOptions arena_options;
  arena_options.start_block_size = std::size_t{1} << 20;
  arena_options.max_block_size = std::size_t{8} << 20;
  arena_options.block_alloc = allocate_arena_block;
  arena_options.block_dealloc = free_large_block;
  out.arena = std::make_unique<google::protobuf::Arena>(arena_options);
  ProgramOutput programs(*out.arena, out.programs);
  return outcome_of(load_file_into(path, options, programs, sink), out);
}

LoadOutcome load_bytes(std::string_view bytes, std::string_view name, const LoadOptions& options,
                       LoadedFile& out, DiagnosticSink& sink) {
  ProgramOutput programs(out.programs);
  Loader loader(options, sink);
  return loader.load(
      bytes.substr(0, 4096), name,
      [&] { return ZipArchive::open_memory(bytes, options.max_archive_members); },
      [&](PaddedBytes& copy) {
        if (!within_limit(bytes.size(), options.max_program_json_bytes, name, loader.reporter_))
          return false;
        if (copy.assign(bytes)) return true;
        report_cannot_allocate(bytes.size(), name, loader.reporter_);
        return false;
      },
      programs);
}

}  // namespace pt2lint
