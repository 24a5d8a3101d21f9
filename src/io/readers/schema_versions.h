// Which PyTorch releases write which export schema version, and which one pt2lint reads.
// From the history of torch/_export/serde/schema.py (SCHEMA_VERSION); the commits read are
// listed in docs/schema-versions.md.
#pragma once

#include <string>

namespace pt2lint {

// The archive version this build understands (the `archive_version` member of a .pt2).
inline constexpr const char* kSupportedArchiveVersion = "0";
// The schema major this build reads, and the newest minor it was checked against.
inline constexpr int kSupportedSchemaMajor = 8;
inline constexpr int kNewestKnownSchemaMinor = 20;

// "schema major 8 (8.0 to 8.20, written by PyTorch 2.6 to 2.12)".
std::string supported_schema_text();

// The releases that write `major` ("PyTorch 2.6 to 2.12"), or what is known when none did.
// `integer_form` is the bare integer schema_version of the first releases.
std::string releases_writing(long long major, bool integer_form);

}  // namespace pt2lint
