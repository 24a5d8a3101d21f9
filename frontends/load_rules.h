// Metadata of the rules whose findings the loaders produce.
#pragma once

#include "frontends/schema_versions.h"
#include "verifier/rule_info.h"

namespace pt2lint {

inline constexpr RuleInfo kMalformedProgram{
    "PT101", "malformed-program", Severity::kError, RulePhase::kLoad,
    "the file, archive or program JSON cannot be read as an exported program"};
inline constexpr RuleInfo kUnsafeArchiveMember{
    "PT102", "unsafe-archive-member", Severity::kError, RulePhase::kLoad,
    "an archive member path is absolute, escapes the archive with '..', or is a symlink"};
inline constexpr RuleInfo kUnsupportedSchemaVersion{
    "PT103", "unsupported-schema-version", Severity::kError, RulePhase::kLoad,
    "the program's schema major version or the archive version is not one pt2lint reads"};

inline constexpr RuleInfo kAotinductorPackage{
    "PT104", "aotinductor-package", Severity::kNote, RulePhase::kLoad,
    "the file is a compiled AOTInductor package with no exported program, so nothing was checked"};

inline constexpr RuleInfo kSuspiciousArchiveLayout{
    "PT105", "suspicious-archive-layout", Severity::kWarning, RulePhase::kLoad,
    "archive members overlap, or a local header disagrees with the central directory"};

// The archive version this build understands (schema majors: schema_versions.h).
inline constexpr const char* kSupportedArchiveVersion = "0";

}  // namespace pt2lint
