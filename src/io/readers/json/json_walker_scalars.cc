// Scalar fields of the JSON reader's walk (json_walker.h): strings copied straight from the
// input when they hold no escape, integers range-checked for their field's width with their
// JSON spelling in messages, doubles with PyTorch's Infinity and NaN, bools.
#include <limits>
#include <string>
#include <type_traits>

#include <fmt/format.h>

#include "io/readers/json/json_walker.h"

namespace pt2lint::json_reader {

inline std::string Walker::integer_problem(od::value& v, std::string_view bits) {
  od::json_type type;
  const std::string_view token = trim(v.raw_json_token());
  if (!v.type().get(type) && type == od::json_type::number) {
    if (token.find_first_of(".eE") != std::string_view::npos) {
      return fmt::format("expected an integer, got number {}", shown(token));
    }
    return fmt::format("integer {} does not fit in {} bits", shown(token), bits);
  }
  return fmt::format("expected an integer, got {}", describe(v));
}

template <typename T>
T Walker::read_integer(od::value& v) {
  if constexpr (std::is_signed_v<T>) {
    std::int64_t x;
    if (auto e = v.get_int64().get(x)) {
      if (check(e) && !fatal_) problem(integer_problem(v, "64"));
      return 0;
    }
    if (x < std::numeric_limits<T>::min() || x > std::numeric_limits<T>::max()) {
      problem(integer_problem(v, std::to_string(sizeof(T) * 8)));
      return 0;
    }
    return static_cast<T>(x);
  } else {
    std::uint64_t x;
    if (auto e = v.get_uint64().get(x)) {
      if (check(e) && !fatal_) {
        problem(fmt::format("expected an unsigned integer, got {}", describe(v)));
      }
      return 0;
    }
    if (x > std::numeric_limits<T>::max()) {
      problem(integer_problem(v, std::to_string(sizeof(T) * 8)));
      return 0;
    }
    return static_cast<T>(x);
  }
}

inline bool Walker::special_double(std::string_view s, double& out) {
  if (s == "Infinity") {
    out = std::numeric_limits<double>::infinity();
  } else if (s == "-Infinity") {
    out = -std::numeric_limits<double>::infinity();
  } else if (s == "NaN") {
    out = std::numeric_limits<double>::quiet_NaN();
  } else {
    return false;
  }
  return true;
}

inline bool Walker::read_double(od::value& v, double& out) {
  if (!v.get_double().get(out)) return true;
  od::json_type type{};
  const bool typed = !v.type().get(type);
  const std::string_view token = trim(v.raw_json_token());
  if (typed && type == od::json_type::string) {
    std::string_view s;
    if (!v.get_string().get(s) && special_double(s, out)) return true;
    problem(fmt::format("expected a number (or \"Infinity\", \"-Infinity\", \"NaN\"), got {}",
                        describe(v)));
    return false;
  }
  if (special_double(token, out)) return true;
  if (typed && type == od::json_type::number) {
    problem(fmt::format("number {} is not representable as a double", shown(token)));
  } else {
    mismatch(v, "a number");
  }
  return false;
}

simdjson::simdjson_result<std::string_view> Walker::unescape_string(od::value& v,
                                                                    std::size_t token_size) {
  od::raw_json_string raw;
  if (auto e = v.get_raw_json_string().get(raw)) return e;
  // Escapes only shrink a string, so its token bounds the text; unescape() may write up to
  // SIMDJSON_PADDING bytes past it.
  const std::size_t needed = token_size + simdjson::SIMDJSON_PADDING;
  if (unescaped_.size() < needed) unescaped_.resize(needed);
  std::uint8_t* dst = unescaped_.data();
  return parser_.unescape(raw, dst);
}

bool Walker::read_string(od::value& v, std::string_view& out) {
  const std::string_view token = trim(v.raw_json_token());
  const std::size_t token_size = token.size();
  od::raw_json_string raw;
  if (token_size <= options_.max_string_bytes && token_size >= 2 && token.front() == '"' &&
      token.back() == '"' && !has_backslash(token) && !v.get_raw_json_string().get(raw)) {
    // Nothing to unescape: straight from the input, skipping simdjson's buffer.
    out = token.substr(1, token_size - 2);
    return true;
  }
  if (token_size > options_.max_string_bytes) {
    problem(fmt::format("string value of about {} bytes is longer than the limit of {} bytes",
                        token_size, options_.max_string_bytes));
    return false;
  }
  if (auto e = unescape_string(v, token_size).get(out)) {
    if (check(e) && !fatal_) mismatch(v, "a string");
    return false;
  }
  return true;
}

void Walker::read_scalar(od::value v, pb::Message& m, const FieldEntry& f, bool add) {
  const pb::FieldDescriptor* fd = f.fd;
  const pb::Reflection* r = f.owner_reflection;
  switch (f.cpp_type) {
    case pb::FieldDescriptor::CPPTYPE_STRING: {
      std::string_view s;
      if (read_string(v, s)) {
        put_string(m, f, add, s);
      } else if (add) {
        put_string(m, f, add, {});
      }
      return;
    }
    case pb::FieldDescriptor::CPPTYPE_INT64: put_int64(m, f, add, read_integer<std::int64_t>(v)); return;
    case pb::FieldDescriptor::CPPTYPE_INT32: put_int32(m, f, add, read_integer<std::int32_t>(v)); return;
    case pb::FieldDescriptor::CPPTYPE_ENUM: {
      const std::int32_t x = read_integer<std::int32_t>(v);
      add ? r->AddEnumValue(&m, fd, x) : r->SetEnumValue(&m, fd, x);
      return;
    }
    case pb::FieldDescriptor::CPPTYPE_UINT64: {
      const std::uint64_t x = read_integer<std::uint64_t>(v);
      add ? r->AddUInt64(&m, fd, x) : r->SetUInt64(&m, fd, x);
      return;
    }
    case pb::FieldDescriptor::CPPTYPE_UINT32: {
      const std::uint32_t x = read_integer<std::uint32_t>(v);
      add ? r->AddUInt32(&m, fd, x) : r->SetUInt32(&m, fd, x);
      return;
    }
    case pb::FieldDescriptor::CPPTYPE_DOUBLE: {
      double x = 0;
      read_double(v, x);
      put_double(m, f, add, x);
      return;
    }
    case pb::FieldDescriptor::CPPTYPE_FLOAT: {
      double x = 0;
      read_double(v, x);
      add ? r->AddFloat(&m, fd, static_cast<float>(x))
          : r->SetFloat(&m, fd, static_cast<float>(x));
      return;
    }
    case pb::FieldDescriptor::CPPTYPE_BOOL: {
      bool x = false;
      if (auto e = v.get_bool().get(x)) {
        if (check(e) && !fatal_) mismatch(v, "true or false");
      }
      put_bool(m, f, add, x);
      return;
    }
    case pb::FieldDescriptor::CPPTYPE_MESSAGE: return;  // handled by read_field
  }
}

}  // namespace pt2lint::json_reader
