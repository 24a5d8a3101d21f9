#include "frontends/program_json.h"

#include <fmt/format.h>

#include "frontends/load_rules.h"

namespace pt2lint {

void read_program_json(LoadContext& context, const PaddedBytes& json, ir::Program& program) {
  const JsonSource source{program.name(), program.json_path()};
  context.json.read(json, *program.mutable_program(), source, context.reporter);
  // A document cut short before its schema_version still says nothing about the version.
  if (program.program().has_schema_version()) check_schema_version(context, program);
}

void check_schema_version(LoadContext& context, const ir::Program& program) {
  const auto& version = program.program().schema_version();
  if (version.major() == kSupportedSchemaMajor) return;
  context.reporter.report(
      kUnsupportedSchemaVersion, program.name(),
      fmt::format("schema {}.{} is not supported; this build reads schema major {} (PyTorch 2.5 "
                  "to 2.11)",
                  version.major(), version.minor(), kSupportedSchemaMajor),
      program.json_path(), "schema_version.major",
      "the checks below still ran, but fields this schema version lacks or renamed may be "
      "reported as missing");
}

}  // namespace pt2lint
