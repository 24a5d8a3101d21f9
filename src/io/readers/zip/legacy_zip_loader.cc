#include "io/readers/zip/legacy_zip_loader.h"

#include <charconv>

#include <fmt/format.h>

#include "core/rule_catalogue.h"
#include "io/readers/schema_versions.h"
#include "io/readers/json/program_json.h"
#include "io/readers/zip/zip_members.h"

namespace pt2lint {
namespace {

// "<major>.<minor>", the only form torch.export.load accepts here.
bool parse_version(std::string_view text, long long& major, long long& minor) {
  const auto dot = text.find('.');
  if (dot == std::string_view::npos || text.find('.', dot + 1) != std::string_view::npos) {
    return false;
  }
  const auto a = std::from_chars(text.data(), text.data() + dot, major);
  const auto b = std::from_chars(text.data() + dot + 1, text.data() + text.size(), minor);
  return a.ec == std::errc() && a.ptr == text.data() + dot && b.ec == std::errc() &&
         b.ptr == text.data() + text.size();
}

}  // namespace

void load_legacy_zip(const ZipArchive& zip, const ZipArchive::Member& program_member,
                     LoadContext& context, ProgramOutput& out) {
  ir::Program& program = out.add();
  program.set_name(kDefaultProgramName);
  program.set_layout(ir::LAYOUT_LEGACY_ZIP);
  program.set_json_path(program_member.name);
  // The state lives in pickles pt2lint does not read; the state-dict rule says so.
  program.mutable_weights()->set_present(false);
  program.mutable_constants()->set_present(false);

  // The few bytes of 'version' first: torch.export.load refuses another schema major on
  // them alone, and then the program JSON need not be read at all.
  const auto* version_member = zip.find("version");
  std::string version;
  const bool version_read = version_member != nullptr &&
                            read_text_member(zip, *version_member, program.name(), context, version);
  long long major = 0;
  long long minor = 0;
  const bool version_parsed = version_read && parse_version(version, major, minor);
  if (version_parsed && major != kSupportedSchemaMajor) {
    report_unsupported_schema(context, program, major, minor, false, version_member->name, {});
    return;
  }

  PaddedBytes json;
  if (read_json_member(zip, program_member, context.options.max_program_json_bytes,
                       program.name(), context, json)) {
    read_program_json(context, json, program);
  }
  if (program.not_checked()) return;

  if (version_member == nullptr) {
    context.reporter.report(kMalformedProgram, program.name(),
                            "the legacy archive has no 'version' entry; torch.export.load "
                            "refuses such files",
                            {}, {},
                            "torch.export.save writes 'version' as '<major>.<minor>' of the "
                            "schema, e.g. '8.1'");
  } else if (version_read && !version_parsed) {
    context.reporter.report(
        kMalformedProgram, program.name(),
        fmt::format("the 'version' entry reads '{}'; expected '<major>.<minor>', e.g. '8.17'",
                    version.substr(0, 40)),
        version_member->name);
  }
}

}  // namespace pt2lint
