#include "io/readers/json/schema_version_peek.h"

#include <charconv>
#include <cstring>
#include <string_view>

#include <simdjson.h>

#include "io/readers/json/json_document.h"
#include "io/readers/schema_versions.h"

namespace pt2lint {
namespace {

namespace od = simdjson::ondemand;

constexpr std::string_view kKey = "\"schema_version\"";

// The last occurrence of kKey that starts before `end`. memrchr finds each candidate quote:
// std::string_view::rfind compares at every position, which costs seconds on a document that
// is one 200 MB string.
std::size_t find_key_before(std::string_view text, std::size_t end) {
  while (end > 0) {
    const void* quote = memrchr(text.data(), '"', end);
    if (quote == nullptr) return std::string_view::npos;
    const auto at = static_cast<std::size_t>(static_cast<const char*>(quote) - text.data());
    if (text.substr(at, kKey.size()) == kKey) return at;
    end = at;
  }
  return std::string_view::npos;
}

std::size_t skip_space(std::string_view s, std::size_t i) {
  while (i < s.size() && (s[i] == ' ' || s[i] == '\n' || s[i] == '\r' || s[i] == '\t')) ++i;
  return i;
}

bool read_integer(std::string_view s, std::size_t& i, long long& value) {
  const auto result = std::from_chars(s.data() + i, s.data() + s.size(), value);
  if (result.ec != std::errc()) return false;
  i = static_cast<std::size_t>(result.ptr - s.data());
  return true;
}

// The value after `"schema_version"` at `at`: an integer, or a flat {"major": M, "minor": m}.
PeekedSchemaVersion parse_text_value(std::string_view s, std::size_t at) {
  PeekedSchemaVersion out;
  std::size_t i = skip_space(s, at + kKey.size());
  if (i >= s.size() || s[i] != ':') return out;
  i = skip_space(s, i + 1);
  if (i < s.size() && (s[i] == '-' || (s[i] >= '0' && s[i] <= '9'))) {
    out.found = read_integer(s, i, out.major);
    out.integer_form = out.found;
    return out;
  }
  if (i >= s.size() || s[i] != '{') return out;
  const std::size_t end = s.find('}', i);
  if (end == std::string_view::npos) return out;
  const std::string_view object = s.substr(i, end - i);
  for (auto [name, value] : {std::pair{std::string_view("\"major\""), &out.major},
                             std::pair{std::string_view("\"minor\""), &out.minor}}) {
    const std::size_t k = object.find(name);
    if (k == std::string_view::npos) continue;
    std::size_t j = skip_space(object, k + name.size());
    if (j >= object.size() || object[j] != ':') return out;
    j = skip_space(object, j + 1);
    if (!read_integer(object, j, *value)) return out;
    if (value == &out.major) out.found = true;
  }
  return out;
}

// A schema_version value: an integer (the old form) or {"major": m, "minor": n}.
PeekedSchemaVersion read_version(od::value value) {
  std::int64_t number = 0;
  if (!value.get_int64().get(number)) return {true, true, number, 0};
  PeekedSchemaVersion out;
  od::object version;
  if (value.get_object().get(version)) return out;
  const bool readable = json_reader::for_each_field(version, [&](std::string_view name, od::field& f) {
    std::int64_t n = 0;
    if (f.value().get_int64().get(n)) return true;
    if (name == "major") {
      out.major = n;
      out.found = true;
    } else if (name == "minor") {
      out.minor = n;
    }
    return true;
  });
  return readable ? out : PeekedSchemaVersion{};
}

// The same, read through the document's real top-level object.
PeekedSchemaVersion confirm(const PaddedBytes& json) {
  PeekedSchemaVersion out;
  od::parser parser;
  od::document doc;
  od::object root;
  if (!json_reader::open_root_object(parser, json, doc, root)) return out;
  json_reader::for_each_field(root, [&](std::string_view key, od::field& field) {
    if (key != "schema_version") return true;
    out = read_version(field.value());
    return false;
  });
  return out;
}

}  // namespace

PeekedSchemaVersion peek_schema_version(const PaddedBytes& json) {
  const std::string_view text = json.view();
  for (std::size_t at = find_key_before(text, text.size()); at != std::string_view::npos;
       at = find_key_before(text, at)) {
    if (at > 0 && text[at - 1] == '\\') continue;  // an escaped quote inside a string
    const PeekedSchemaVersion candidate = parse_text_value(text, at);
    if (!candidate.found) continue;
    if (!candidate.integer_form && candidate.major == kSupportedSchemaMajor) return candidate;
    return confirm(json);
  }
  return {};
}

}  // namespace pt2lint
