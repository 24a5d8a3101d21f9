#include "io/readers/json/program_json.h"

#include <fmt/format.h>

#include "core/rule_catalogue.h"
#include "io/readers/schema_versions.h"
#include "io/readers/json/schema_version_peek.h"

namespace pt2lint {
namespace {

std::string version_text(long long major, long long minor, bool integer_form) {
  return integer_form ? fmt::format("{} (an integer)", major) : fmt::format("{}.{}", major, minor);
}

}  // namespace

void report_unsupported_schema(LoadContext& context, ir::Program& program, long long major,
                               long long minor, bool integer_form, std::string_view member,
                               std::string_view json_path) {
  program.clear_program();
  program.clear_node_metadata_strings();
  program.set_not_checked(true);
  if (!integer_form) {
    program.mutable_program()->mutable_schema_version()->set_major(major);
    program.mutable_program()->mutable_schema_version()->set_minor(minor);
  }
  context.reporter.report(
      kUnsupportedSchemaVersion, program.name(),
      fmt::format("schema_version {} is not supported: it is written by {}; this build reads {}",
                  version_text(major, minor, integer_form), releases_writing(major, integer_form),
                  supported_schema_text()),
      member, json_path,
      "pt2lint read only the schema version and checked nothing else in this program: its "
      "fields differ from the ones pt2lint knows, so any other finding would be a guess; "
      "re-export it with a PyTorch that writes schema 8");
}

void read_program_json(LoadContext& context, const PaddedBytes& json, ir::Program& program,
                       InputDiscard discard, ReadBeside* beside) {
  const PeekedSchemaVersion peeked = peek_schema_version(json);
  if (peeked.found && (peeked.integer_form || peeked.major != kSupportedSchemaMajor)) {
    report_unsupported_schema(context, program, peeked.major, peeked.minor, peeked.integer_form,
                              program.json_path(), "schema_version");
    return;
  }
  // Findings wait until the version is known: a program of another major gets one finding.
  LoadReporter held;
  const JsonSource source{program.name(), program.json_path()};
  context.json.read(json, *program.mutable_program(), source, held, discard,
                    context.options.intern_node_metadata ? program.mutable_node_metadata_strings()
                                                         : nullptr,
                    beside);
  if (beside != nullptr && beside->read_again) return;  // the caller reads it again
  const auto& version = program.program().schema_version();
  if (program.program().has_schema_version() && version.major() != kSupportedSchemaMajor) {
    report_unsupported_schema(context, program, version.major(), version.minor(), false,
                              program.json_path(), "schema_version");
    return;
  }
  context.reporter.adopt(held);
}

void check_schema_version(LoadContext& context, const ir::Program& program) {
  const auto& version = program.program().schema_version();
  if (version.major() == kSupportedSchemaMajor) return;
  context.reporter.report(
      kUnsupportedSchemaVersion, program.name(),
      fmt::format("schema {}.{} is not supported: it is written by {}; this build reads {}",
                  version.major(), version.minor(), releases_writing(version.major(), false),
                  supported_schema_text()),
      program.json_path(), "schema_version.major",
      "the checks below still ran, but fields this schema version lacks or renamed may be "
      "reported as missing");
}

}  // namespace pt2lint
