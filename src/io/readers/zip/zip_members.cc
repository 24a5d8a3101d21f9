#include "io/readers/zip/zip_members.h"

#include <fmt/format.h>

#include "core/rule_catalogue.h"

namespace pt2lint {
namespace {

constexpr std::uint64_t kMaxTextMemberBytes = 4096;

std::string_view trim_space(std::string_view s) {
  while (!s.empty() && (s.front() == ' ' || s.front() == '\n' || s.front() == '\r' ||
                        s.front() == '\t')) {
    s.remove_prefix(1);
  }
  while (!s.empty() && (s.back() == ' ' || s.back() == '\n' || s.back() == '\r' ||
                        s.back() == '\t')) {
    s.remove_suffix(1);
  }
  return s;
}

// A member read despite headers that disagree: PyTorch reads it too, by the central directory.
void report_header_disagreement(const ZipArchive& zip, const ZipArchive::Member& member,
                                std::string_view program, LoadContext& context) {
  const Status agreement = zip.check_local_header(member);
  if (agreement.ok()) return;
  context.reporter.report(
      kSuspiciousArchiveLayout, program,
      fmt::format("archive member '{}' has a local header that disagrees with the central "
                  "directory: {}",
                  member.name, agreement.message()),
      member.name, {},
      "PyTorch's reader (and pt2lint) go by the central directory and load the member (measured "
      "with PyTorch 2.11); tools that read local headers, such as Python's zipfile, see "
      "something else or call the archive damaged. torch.export.save never writes this: "
      "rewrite the file with it");
}

}  // namespace

bool read_text_member(const ZipArchive& zip, const ZipArchive::Member& member,
                      std::string_view program, LoadContext& context, std::string& text,
                      bool exact) {
  PaddedBytes bytes;
  if (Status read = zip.read(member, kMaxTextMemberBytes, bytes); !read.ok()) {
    report_unreadable_member(member, read.message(), program, context);
    return false;
  }
  report_header_disagreement(zip, member, program, context);
  text = exact ? bytes.view() : trim_space(bytes.view());
  return true;
}

bool read_json_member(const ZipArchive& zip, const ZipArchive::Member& member,
                      std::uint64_t max_bytes, std::string_view program, LoadContext& context,
                      PaddedBytes& json, ZipArchive::Crc crc) {
  const Status read = zip.read(member, max_bytes, json, crc);
  if (read.ok()) {
    report_header_disagreement(zip, member, program, context);
    return true;
  }
  report_unreadable_member(member, read.message(), program, context);
  return false;
}

void report_unreadable_member(const ZipArchive::Member& member, std::string_view error,
                              std::string_view program, LoadContext& context) {
  context.reporter.report(kMalformedProgram, program,
                          fmt::format("cannot read archive member '{}': {}", member.name, error),
                          member.name);
}

}  // namespace pt2lint
