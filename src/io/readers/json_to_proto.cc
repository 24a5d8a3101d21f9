#include "io/readers/json_to_proto.h"

#include <charconv>
#include <cmath>
#include <cstring>
#include <limits>
#include <stdexcept>
#include <string>
#include <unordered_map>
#include <vector>

#include <fmt/format.h>
#include <google/protobuf/descriptor.h>
#include <simdjson.h>

#include "io/readers/ir_field_setters.h"
#include "io/readers/load_rules.h"
#include "program.pb.h"

namespace pt2lint {
namespace {

namespace pb = google::protobuf;
namespace od = simdjson::ondemand;

static_assert(PaddedBytes::kPadding >= simdjson::SIMDJSON_PADDING);

struct MessageTable;

// What the reader needs to know about one field, resolved once per descriptor.
struct FieldEntry {
  std::string_view name;  // points into the descriptor pool, which outlives the reader
  const pb::FieldDescriptor* fd = nullptr;
  const MessageTable* sub = nullptr;  // the field's message type, for message fields
  const pb::Reflection* owner_reflection = nullptr;  // of the message holding the field
  int index = 0;                      // position in MessageTable::fields
  bool required = false;
  bool keyed = false;    // repeated key/value message, written as a JSON object
  bool as_none = false;  // `bool as_none`: the presence of the key is the value
  bool in_oneof = false;
  bool repeated = false;  // fd->is_repeated() and fd->cpp_type(), kept here: read per value
  pb::FieldDescriptor::CppType cpp_type = pb::FieldDescriptor::CPPTYPE_INT32;
  FieldSetters set;  // generated accessors; a null slot means reflection
};

enum class Shape {
  kStruct,   // JSON object keyed by field name
  kUnion,    // single-key JSON object naming one field of `oneof kind`
  kWrapper,  // one repeated field `items`: the JSON value is that list (or keyed object)
};

struct MessageTable {
  const pb::Descriptor* descriptor = nullptr;
  // Shared by every message of the type; fetching it per message costs a once-flag check.
  const pb::Reflection* reflection = nullptr;
  Shape shape = Shape::kStruct;
  std::vector<FieldEntry> fields;
  std::uint64_t required_mask = 0;
  std::string words;       // "output spec", for messages about union kinds
  std::string valid_tags;  // "user_output, loss_output, ..."
  const FieldEntry* key = nullptr;    // set on key/value entry messages
  const FieldEntry* value = nullptr;
  bool fast_tensor_meta = false;  // ir::TensorMeta, read by Walker::fast_tensor_meta first

  const FieldEntry* find(std::string_view name) const {
    for (const auto& f : fields) {
      // Sizes and first bytes settle nearly every miss without a memcmp call.
      if (f.name.size() == name.size() && !name.empty() && f.name[0] == name[0] &&
          std::memcmp(f.name.data(), name.data(), name.size()) == 0) {
        return &f;
      }
    }
    return nullptr;
  }
};

// "OutputSpec" -> "output spec": messages name union kinds the way the schema's docs do.
std::string camel_to_words(std::string_view name) {
  std::string out;
  for (char c : name) {
    if (c >= 'A' && c <= 'Z') {
      if (!out.empty()) out += ' ';
      out += static_cast<char>(c - 'A' + 'a');
    } else {
      out += c;
    }
  }
  return out;
}

// Tables for every message of the IR (src/core/ir/program.proto), built once per process on
// first use and only read after that: readers on any thread share them. Building them per
// file cost ~5% of checking a folder of small programs.
class SchemaTables {
 public:
  // The reflection-only tables serve tests that compare both ways of writing; the checker
  // never builds them.
  static const SchemaTables& shared(bool use_field_setters) {
    if (use_field_setters) {
      static const SchemaTables with_setters(true);
      return with_setters;
    }
    static const SchemaTables reflection_only(false);
    return reflection_only;
  }

  // Null for a message that is not part of the IR.
  const MessageTable* get(const pb::Descriptor* d) const {
    auto it = tables_.find(d);
    return it == tables_.end() ? nullptr : it->second.get();
  }

 private:
  explicit SchemaTables(bool use_field_setters) : use_field_setters_(use_field_setters) {
    const pb::FileDescriptor* file = ir::Program::descriptor()->file();
    for (int i = 0; i < file->message_type_count(); ++i) table_of(file->message_type(i));
  }

  MessageTable& table_of(const pb::Descriptor* d) {
    auto it = tables_.find(d);
    return it != tables_.end() ? *it->second : build(d);
  }

  MessageTable& build(const pb::Descriptor* d) {
    auto owned = std::make_unique<MessageTable>();
    MessageTable& t = *owned;
    tables_.emplace(d, std::move(owned));  // before recursing: the IR types are recursive
    t.descriptor = d;
    t.reflection = pb::MessageFactory::generated_factory()->GetPrototype(d)->GetReflection();
    t.words = camel_to_words(d->name());
    const bool is_union = d->oneof_decl_count() == 1 && d->oneof_decl(0)->name() == "kind" &&
                          d->oneof_decl(0)->field_count() == d->field_count();
    const bool is_wrapper = d->field_count() == 1 && d->field(0)->name() == "items" &&
                            d->field(0)->is_repeated();
    t.shape = is_union ? Shape::kUnion : is_wrapper ? Shape::kWrapper : Shape::kStruct;
    // The fast reader writes through generated accessors, so it is off with them.
    t.fast_tensor_meta = use_field_setters_ && d == ir::TensorMeta::descriptor();
    t.fields.reserve(static_cast<std::size_t>(d->field_count()));
    for (int i = 0; i < d->field_count(); ++i) {
      const pb::FieldDescriptor* fd = d->field(i);
      FieldEntry e;
      e.name = fd->name();
      e.fd = fd;
      e.index = i;
      e.owner_reflection = t.reflection;
      e.required = fd->options().GetExtension(ir::required);
      e.in_oneof = fd->real_containing_oneof() != nullptr;
      e.repeated = fd->is_repeated();
      e.cpp_type = fd->cpp_type();
      e.as_none = fd->name() == "as_none" && fd->cpp_type() == pb::FieldDescriptor::CPPTYPE_BOOL;
      if (use_field_setters_) e.set = ir_field_setters(fd);
      t.fields.push_back(e);
      if (e.required && i < 64) t.required_mask |= std::uint64_t{1} << i;
      if (is_union) {
        if (!t.valid_tags.empty()) t.valid_tags += ", ";
        t.valid_tags += fd->name();
      }
    }
    if (d->field_count() == 2 && d->field(0)->name() == "key" && d->field(1)->name() == "value") {
      t.key = &t.fields[0];
      t.value = &t.fields[1];
    }
    for (auto& e : t.fields) {
      if (e.fd->cpp_type() != pb::FieldDescriptor::CPPTYPE_MESSAGE) continue;
      e.sub = &table_of(e.fd->message_type());
      e.keyed = e.fd->is_repeated() && e.sub->key != nullptr;
    }
    return t;
  }

  bool use_field_setters_;
  std::unordered_map<const pb::Descriptor*, std::unique_ptr<MessageTable>> tables_;
};

// Writes one scalar to a field: through its generated setter when it has one, else through
// reflection (`add` for repeated fields). Both give the same message.
void put_string(pb::Message& m, const FieldEntry& f, bool add, std::string_view s) {
  if (f.set.string != nullptr) return f.set.string(m, s);
  const pb::Reflection* r = f.owner_reflection;
  add ? r->AddString(&m, f.fd, std::string(s)) : r->SetString(&m, f.fd, std::string(s));
}
void put_int64(pb::Message& m, const FieldEntry& f, bool add, std::int64_t x) {
  if (f.set.int64 != nullptr) return f.set.int64(m, x);
  add ? f.owner_reflection->AddInt64(&m, f.fd, x) : f.owner_reflection->SetInt64(&m, f.fd, x);
}
void put_int32(pb::Message& m, const FieldEntry& f, bool add, std::int32_t x) {
  if (f.set.int32 != nullptr) return f.set.int32(m, x);
  add ? f.owner_reflection->AddInt32(&m, f.fd, x) : f.owner_reflection->SetInt32(&m, f.fd, x);
}
void put_bool(pb::Message& m, const FieldEntry& f, bool add, bool x) {
  if (f.set.boolean != nullptr) return f.set.boolean(m, x);
  add ? f.owner_reflection->AddBool(&m, f.fd, x) : f.owner_reflection->SetBool(&m, f.fd, x);
}
void put_double(pb::Message& m, const FieldEntry& f, bool add, double x) {
  if (f.set.real != nullptr) return f.set.real(m, x);
  add ? f.owner_reflection->AddDouble(&m, f.fd, x) : f.owner_reflection->SetDouble(&m, f.fd, x);
}
// The sub-message a message field's value is read into: mutable_<f>() or add_<f>().
pb::Message& put_message(pb::Message& m, const FieldEntry& f) {
  if (f.set.message != nullptr) return *f.set.message(m);
  return f.fd->is_repeated() ? *f.owner_reflection->AddMessage(&m, f.fd)
                             : *f.owner_reflection->MutableMessage(&m, f.fd);
}

// Eight bytes at a time: the mask has the high bit set in the lowest byte of `x` equal to
// `c` (bytes above a match may be flagged falsely, which only the first match ignores).
inline std::uint64_t byte_match(std::uint64_t x, unsigned char c) {
  constexpr std::uint64_t kOnes = 0x0101010101010101ULL;
  const std::uint64_t y = x ^ (kOnes * c);
  return (y - kOnes) & ~y & (kOnes * 0x80);
}

inline std::uint64_t load8(const char* p) {
  std::uint64_t x;
  std::memcpy(&x, p, 8);
  return x;
}

// The first '"' or '\\' in [p, limit), or limit. Reads whole 8-byte words only below limit.
inline const char* find_quote_or_backslash(const char* p, const char* limit) {
  while (limit - p >= 8) {
    const std::uint64_t x = load8(p);
    const std::uint64_t m = byte_match(x, '"') | byte_match(x, '\\');
    if (m != 0) return p + (__builtin_ctzll(m) >> 3);
    p += 8;
  }
  while (p < limit && *p != '"' && *p != '\\') ++p;
  return p;
}

// Whether `s` holds a backslash. `s` lies in a padded input buffer, but the scan still only
// reads whole words inside `s`.
inline bool has_backslash(std::string_view s) {
  const char* p = s.data();
  const char* limit = p + s.size();
  while (limit - p >= 8) {
    if (byte_match(load8(p), '\\') != 0) return true;
    p += 8;
  }
  for (; p < limit; ++p) {
    if (*p == '\\') return true;
  }
  return false;
}

std::string_view trim(std::string_view s) {
  while (!s.empty() && (s.back() == ' ' || s.back() == '\n' || s.back() == '\r' ||
                        s.back() == '\t' || s.back() == ',' || s.back() == ':')) {
    s.remove_suffix(1);
  }
  return s;
}

// Shows untrusted text in a message: bounded, with control bytes escaped.
std::string shown(std::string_view s, std::size_t limit = 60) {
  std::string out;
  for (std::size_t i = 0; i < s.size() && i < limit; ++i) {
    const auto c = static_cast<unsigned char>(s[i]);
    if (c < 0x20 || c == 0x7f) {
      out += fmt::format("\\x{:02x}", c);
    } else {
      out += static_cast<char>(c);
    }
  }
  if (s.size() > limit) out += fmt::format("... ({} bytes)", s.size());
  return out;
}

const char* type_name(const pb::FieldDescriptor* fd) {
  switch (fd->cpp_type()) {
    case pb::FieldDescriptor::CPPTYPE_INT32:
    case pb::FieldDescriptor::CPPTYPE_INT64:
    case pb::FieldDescriptor::CPPTYPE_UINT32:
    case pb::FieldDescriptor::CPPTYPE_UINT64:
    case pb::FieldDescriptor::CPPTYPE_ENUM: return "an integer";
    case pb::FieldDescriptor::CPPTYPE_DOUBLE:
    case pb::FieldDescriptor::CPPTYPE_FLOAT: return "a number";
    case pb::FieldDescriptor::CPPTYPE_BOOL: return "true or false";
    case pb::FieldDescriptor::CPPTYPE_STRING: return "a string";
    case pb::FieldDescriptor::CPPTYPE_MESSAGE: return "an object";
  }
  return "a value";
}

bool is_value_error(simdjson::error_code e) {
  switch (e) {
    case simdjson::INCORRECT_TYPE:
    case simdjson::NUMBER_ERROR:
    case simdjson::NUMBER_OUT_OF_RANGE:
    case simdjson::STRING_ERROR:
    case simdjson::NO_SUCH_FIELD: return true;
    default: return false;
  }
}

// One pass over one document.
class Walker {
 public:
  Walker(od::document& doc, const PaddedBytes& json, const JsonReadOptions& options,
         const JsonSource& source, LoadReporter& reporter)
      : doc_(doc), json_(json), options_(options), source_(source),
        reporter_(reporter) {
    steps_.reserve(64);
  }

  bool fatal() const { return fatal_; }
  // Until iterate() succeeds the document has no position to ask for.
  void document_started() { have_document_ = true; }

  void read_root(od::object& object, pb::Message& m, const MessageTable& t) {
    read_struct_fields(object, m, t);
  }

  void structural(simdjson::error_code e) {
    if (fatal_) return;
    fatal_ = true;
    std::string what;
    switch (e) {
      case simdjson::INCOMPLETE_ARRAY_OR_OBJECT:
      case simdjson::UNCLOSED_STRING:
      case simdjson::EMPTY: what = "the JSON ends before the document is complete (truncated?)"; break;
      case simdjson::DEPTH_ERROR:
        what = fmt::format("the JSON nests deeper than {} levels", options_.max_depth);
        break;
      case simdjson::UTF8_ERROR: what = "the JSON is not valid UTF-8"; break;
      case simdjson::CAPACITY:
      case simdjson::MEMALLOC: what = "the JSON document is too large to read"; break;
      default: what = "the JSON is malformed"; break;
    }
    std::string message = what;
    const char* location = nullptr;
    if (have_document_ && !doc_.current_location().get(location) && location >= json_.data() &&
        location <= json_.data() + json_.size()) {
      message += fmt::format(" at byte {}", location - json_.data());
    } else if (e == simdjson::INCOMPLETE_ARRAY_OR_OBJECT || e == simdjson::TAPE_ERROR) {
      message += fmt::format(" at byte {}", json_.size());
    }
    const std::string where = path();
    if (!where.empty()) message += fmt::format(", while reading {}", where);
    message += fmt::format(" ({}); the rest of the document was not read",
                           simdjson::error_message(e));
    reporter_.report(kMalformedProgram, source_.program, std::move(message), source_.member,
                     where);
  }

 private:
  // One step of the JSON path. The path is kept as steps and only rendered into text when
  // something is reported: most documents report nothing.
  struct Step {
    enum Kind : std::uint8_t { kField, kIndex, kKey } kind;
    std::string_view name;  // field name or object key; points into the input or the schema
    std::size_t index = 0;
  };

  // Pops the step a nested read pushed when that read returns.
  class PathScope {
   public:
    PathScope(std::vector<Step>& steps, Step step) : steps_(steps) { steps_.push_back(step); }
    ~PathScope() { steps_.pop_back(); }
    PathScope(const PathScope&) = delete;
    PathScope& operator=(const PathScope&) = delete;

   private:
    std::vector<Step>& steps_;
  };

  std::string path() const {
    std::string out;
    for (const auto& step : steps_) {
      switch (step.kind) {
        case Step::kField:
          if (!out.empty()) out += '.';
          out += step.name;
          break;
        case Step::kIndex: out += fmt::format("[{}]", step.index); break;
        case Step::kKey:
          out += "[\"";
          for (char c : step.name.substr(0, 200)) {
            if (c == '"' || c == '\\') out += '\\';
            out += c;
          }
          if (step.name.size() > 200) out += "...";
          out += "\"]";
          break;
      }
    }
    return out;
  }

  // Counts container nesting; the recursion below is bounded by it.
  class DepthScope {
   public:
    explicit DepthScope(Walker& w) : w_(w) { ++w_.depth_; }
    ~DepthScope() { --w_.depth_; }
    DepthScope(const DepthScope&) = delete;
    DepthScope& operator=(const DepthScope&) = delete;
    bool ok() {
      if (w_.depth_ <= w_.options_.max_depth) return true;
      w_.structural(simdjson::DEPTH_ERROR);
      return false;
    }

   private:
    Walker& w_;
  };

  // The key's bytes when they need no unescaping, which is nearly always: skips simdjson's
  // copy into its string buffer. Stage 1 has already checked the closing quote exists.
  // The next field of an object; false, after reporting, when the document is unreadable.
  template <typename FieldResult>
  bool next_field(FieldResult&& result, od::field& field) {
    if (auto e = std::forward<FieldResult>(result).get(field)) {
      structural(e);
      return false;
    }
    return true;
  }

  // The generic readers' step over one field: read it, skip it (its key was bad and is
  // reported), or stop (the document is unreadable).
  enum class KeyStep { kRead, kSkip, kStop };
  template <typename FieldResult>
  KeyStep next_key(FieldResult&& result, od::field& field, std::string_view& key) {
    if (!next_field(std::forward<FieldResult>(result), field)) return KeyStep::kStop;
    if (key_of(field, key)) return KeyStep::kRead;
    return fatal_ ? KeyStep::kStop : KeyStep::kSkip;
  }

  bool key_of(od::field& field, std::string_view& key) {
    const char* begin = field.key().raw();
    const char* limit = json_.data() + json_.capacity();
    if (begin >= json_.data() && begin < limit) {
      // Keys are short: one inline word-at-a-time scan for the closing quote or a backslash
      // instead of two library calls per key.
      const char* p = find_quote_or_backslash(begin, limit);
      if (p < limit && *p == '"') {
        key = std::string_view(begin, static_cast<std::size_t>(p - begin));
        return true;
      }
    }
    if (auto e = field.unescaped_key().get(key)) {
      if (check(e) && !fatal_) problem("an object key is not a valid JSON string");
      return false;
    }
    return true;
  }

  void problem(std::string message) {
    reporter_.report(kMalformedProgram, source_.program, std::move(message), source_.member,
                     path());
  }

  std::string describe(od::value& v) {
    od::json_type type;
    const std::string_view token = trim(v.raw_json_token());
    if (v.type().get(type)) return fmt::format("'{}'", shown(token));
    switch (type) {
      case od::json_type::object: return "an object";
      case od::json_type::array: return "an array";
      case od::json_type::string: return fmt::format("string {}", shown(token));
      case od::json_type::number: return fmt::format("number {}", shown(token));
      case od::json_type::boolean: return std::string(token.substr(0, 5));
      case od::json_type::null: return "null";
    }
    return "a value";
  }

  void mismatch(od::value& v, std::string_view expected) {
    problem(fmt::format("expected {}, got {}", expected, describe(v)));
  }

  // Returns true when `e` was a value-level error that the caller should report and skip.
  bool check(simdjson::error_code e) {
    if (e == simdjson::SUCCESS) return false;
    if (!is_value_error(e)) structural(e);
    return true;
  }

  void read_message(od::value v, pb::Message& m, const MessageTable& t) {
    switch (t.shape) {
      case Shape::kUnion: read_union(v, m, t); return;
      case Shape::kWrapper: read_field(v, m, t.fields[0]); return;
      case Shape::kStruct: {
        od::object object;
        if (auto e = v.get_object().get(object)) {
          if (check(e) && !fatal_) mismatch(v, fmt::format("an object ({})", t.descriptor->name()));
          return;
        }
        DepthScope depth(*this);
        if (!depth.ok()) return;
        if (t.fast_tensor_meta && fast_tensor_meta(object, static_cast<ir::TensorMeta&>(m))) {
          return;
        }
        read_struct_fields(object, m, t);
        return;
      }
    }
  }

  // ---- Fast path for ir::TensorMeta (about half of a program's values).
  //
  // It reads the well-formed case only: known keys once each, values of the expected JSON
  // type and range, SymInts as {"as_int": n}, dtype and sizes present. On anything else it
  // gives up: it clears the message, puts the object back at its first field and returns
  // false, and read_struct_fields reads the object again, reporting exactly what it always
  // did. Scalar reads never leave simdjson in an error state, so the re-read sees the same
  // document. An error of the document's structure is not retried (simdjson keeps it): the
  // fast path reports it itself, from the same position and under the same JSON path as
  // the generic reader, which iterates containers the same way.
  enum class Fast { kDone, kGiveUp, kFatal };

  // The key of `field` when it is plain (no escapes), as key_of's fast case.
  bool plain_key(od::field& field, std::string_view& key) const {
    const char* begin = field.key().raw();
    const char* limit = json_.data() + json_.capacity();
    if (begin < json_.data() || begin >= limit) return false;
    const char* p = find_quote_or_backslash(begin, limit);
    if (p >= limit || *p != '"') return false;
    key = std::string_view(begin, static_cast<std::size_t>(p - begin));
    return true;
  }

  // A failed read: a value the generic reader reports (give up and let it), or one that
  // ends the document, reported here as the generic reader does at the same point.
  Fast failed(simdjson::error_code e) {
    if (is_value_error(e)) return Fast::kGiveUp;
    structural(e);
    return Fast::kFatal;
  }

  Fast fast_int64(od::value& v, std::int64_t& out) {
    if (auto e = v.get_int64().get(out)) return failed(e);
    return Fast::kDone;
  }
  Fast fast_int32(od::value& v, std::int32_t& out) {
    std::int64_t x;
    if (auto e = v.get_int64().get(x)) return failed(e);
    if (x < std::numeric_limits<std::int32_t>::min() ||
        x > std::numeric_limits<std::int32_t>::max()) {
      return Fast::kGiveUp;
    }
    out = static_cast<std::int32_t>(x);
    return Fast::kDone;
  }

  // {"as_int": n}
  Fast fast_symint(od::value v, ir::SymInt& out) {
    od::object object;
    if (auto e = v.get_object().get(object)) return failed(e);
    std::size_t count = 0;
    for (auto result : object) {
      od::field field;
      if (!next_field(std::move(result), field)) return Fast::kFatal;
      std::string_view key;
      if (++count > 1 || !plain_key(field, key) || key != "as_int") return Fast::kGiveUp;
      PathScope scope(steps_, {Step::kField, "as_int"});
      od::value value = field.value();
      std::int64_t x;
      if (const Fast r = fast_int64(value, x); r != Fast::kDone) return r;
      out.set_as_int(x);
    }
    return count == 1 ? Fast::kDone : Fast::kGiveUp;
  }

  Fast fast_symint_list(od::value v, pb::RepeatedPtrField<ir::SymInt>& out) {
    od::array array;
    if (auto e = v.get_array().get(array)) return failed(e);
    std::size_t i = 0;
    for (auto result : array) {
      od::value element;
      if (auto e = result.get(element)) {
        structural(e);
        return Fast::kFatal;
      }
      PathScope scope(steps_, {Step::kIndex, {}, i++});
      const Fast r = fast_symint(element, *out.Add());
      if (r != Fast::kDone) return r;
    }
    return Fast::kDone;
  }

  // {"type": "cpu", "index": null or n}
  Fast fast_device(od::value v, ir::Device& out) {
    od::object object;
    if (auto e = v.get_object().get(object)) return failed(e);
    bool type_seen = false, index_seen = false;
    for (auto result : object) {
      od::field field;
      if (!next_field(std::move(result), field)) return Fast::kFatal;
      std::string_view key;
      if (!plain_key(field, key)) return Fast::kGiveUp;
      od::value value = field.value();
      if (key == "type" && !type_seen) {
        type_seen = true;
        const std::string_view token = trim(value.raw_json_token());
        od::raw_json_string raw;
        if (token.size() < 2 || token.size() > options_.max_string_bytes ||
            token.front() != '"' || token.back() != '"' || has_backslash(token) ||
            value.get_raw_json_string().get(raw)) {
          return Fast::kGiveUp;
        }
        out.set_type(token.data() + 1, token.size() - 2);
      } else if (key == "index" && !index_seen) {
        index_seen = true;
        od::json_type type;
        if (!value.type().get(type) && type == od::json_type::null) continue;  // unset
        std::int64_t x;
        if (const Fast r = fast_int64(value, x); r != Fast::kDone) return r;
        out.set_index(x);
      } else {
        return Fast::kGiveUp;
      }
    }
    return type_seen ? Fast::kDone : Fast::kGiveUp;
  }

  // True when the object was read (or a structural error reported); false when the generic
  // reader must read it, with `m` empty and the object back at its start.
  bool fast_tensor_meta(od::object& object, ir::TensorMeta& m) {
    // The generic reader would count two more levels (sizes, one SymInt).
    if (depth_ + 2 > options_.max_depth) return false;
    enum : unsigned { kDtype = 1, kSizes = 2, kGrad = 4, kDevice = 8, kStrides = 16,
                      kOffset = 32, kLayout = 64 };
    unsigned seen = 0;
    Fast r = Fast::kDone;
    for (auto result : object) {
      od::field field;
      if (!next_field(std::move(result), field)) return true;
      std::string_view key;
      if (!plain_key(field, key)) {
        r = Fast::kGiveUp;
        break;
      }
      unsigned bit = 0;
      std::string_view name;
      switch (key.size()) {
        case 5:
          if (key == "dtype") bit = kDtype, name = "dtype";
          else if (key == "sizes") bit = kSizes, name = "sizes";
          break;
        case 6:
          if (key == "device") bit = kDevice, name = "device";
          else if (key == "layout") bit = kLayout, name = "layout";
          break;
        case 7:
          if (key == "strides") bit = kStrides, name = "strides";
          break;
        case 13:
          if (key == "requires_grad") bit = kGrad, name = "requires_grad";
          break;
        case 14:
          if (key == "storage_offset") bit = kOffset, name = "storage_offset";
          break;
        default: break;
      }
      if (bit == 0 || (seen & bit) != 0) {
        r = Fast::kGiveUp;
        break;
      }
      seen |= bit;
      PathScope scope(steps_, {Step::kField, name});
      od::value v = field.value();
      std::int32_t x32 = 0;
      bool b = false;
      switch (bit) {
        case kDtype:
          if ((r = fast_int32(v, x32)) == Fast::kDone) m.set_dtype(x32);
          break;
        case kLayout:
          if ((r = fast_int32(v, x32)) == Fast::kDone) m.set_layout(x32);
          break;
        case kGrad:
          if (auto e = v.get_bool().get(b)) r = failed(e);
          else m.set_requires_grad(b);
          break;
        case kSizes: r = fast_symint_list(v, *m.mutable_sizes()); break;
        case kStrides: r = fast_symint_list(v, *m.mutable_strides()); break;
        case kOffset: r = fast_symint(v, *m.mutable_storage_offset()); break;
        case kDevice: r = fast_device(v, *m.mutable_device()); break;
      }
      if (r != Fast::kDone) break;
    }
    if (r == Fast::kFatal) return true;
    if (r == Fast::kDone && (seen & (kDtype | kSizes)) == (kDtype | kSizes)) return true;
    m.Clear();
    // Back to the first field for read_struct_fields; at an object's start this cannot fail.
    bool has_fields = false;
    [[maybe_unused]] const simdjson::error_code e = object.reset().get(has_fields);
    return false;
  }

  void read_struct_fields(od::object& object, pb::Message& m, const MessageTable& t) {
    std::uint64_t seen = 0;
    for (auto result : object) {
      od::field field;
      std::string_view key;
      const KeyStep step = next_key(std::move(result), field, key);
      if (step == KeyStep::kStop) return;
      if (step == KeyStep::kSkip) continue;
      const FieldEntry* f = t.find(key);
      if (f == nullptr) continue;  // newer writers add fields; older readers ignore them too
      if (f->index < 64) seen |= std::uint64_t{1} << f->index;
      PathScope scope(steps_, {Step::kField, f->name});
      read_field(field.value(), m, *f);
      if (fatal_) return;
    }
    const std::uint64_t missing = t.required_mask & ~seen;
    if (missing == 0) return;
    for (const auto& f : t.fields) {
      if (f.index < 64 && (missing >> f.index & 1)) {
        problem(fmt::format("missing required field '{}' of {}", f.name, t.descriptor->name()));
      }
    }
  }

  void read_union(od::value v, pb::Message& m, const MessageTable& t) {
    od::object object;
    if (auto e = v.get_object().get(object)) {
      if (check(e) && !fatal_) {
        mismatch(v, fmt::format("a single-key object naming one {} kind ({})", t.words,
                                t.valid_tags));
      }
      return;
    }
    DepthScope depth(*this);
    if (!depth.ok()) return;
    std::size_t count = 0;
    std::string_view first_tag;  // points into the input or simdjson's string buffer
    for (auto result : object) {
      od::field field;
      std::string_view key;
      const KeyStep step = next_key(std::move(result), field, key);
      if (step == KeyStep::kStop) return;
      if (step == KeyStep::kSkip) continue;
      if (++count > 1) {
        if (count == 2) {
          problem(fmt::format("{} holds two kinds, '{}' and '{}'; a union holds exactly one",
                              t.descriptor->name(), shown(first_tag), shown(key)));
        }
        continue;
      }
      first_tag = key;
      const FieldEntry* f = t.find(key);
      if (f == nullptr) {
        problem(fmt::format("unknown {} kind '{}'; expected one of {}", t.words, shown(key),
                            t.valid_tags));
        continue;
      }
      PathScope scope(steps_, {Step::kField, f->name});
      read_field(field.value(), m, *f);
      if (fatal_) return;
    }
    if (count == 0) {
      problem(fmt::format("empty {} object; expected exactly one kind of {}", t.words,
                          t.valid_tags));
    }
  }

  void read_field(od::value v, pb::Message& m, const FieldEntry& f) {
    if (f.as_none) {
      // Old writers put [] here, new ones true: only the key matters.
      put_bool(m, f, /*add=*/false, true);
      return;
    }
    od::json_type type;
    if (!v.type().get(type) && type == od::json_type::null) {
      if (f.required || f.in_oneof) {
        problem(fmt::format("expected {}, got null", f.fd->is_repeated() ? "a list"
                                                                         : type_name(f.fd)));
      }
      return;  // null means unset
    }
    if (f.repeated) {
      if (f.keyed) {
        read_keyed(v, m, f);
      } else {
        read_list(v, m, f);
      }
      return;
    }
    if (f.sub != nullptr) {
      read_message(v, put_message(m, f), *f.sub);
      return;
    }
    read_scalar(v, m, f, /*add=*/false);
  }

  void read_list(od::value v, pb::Message& m, const FieldEntry& f) {
    od::array array;
    if (auto e = v.get_array().get(array)) {
      if (check(e) && !fatal_) mismatch(v, "a list");
      return;
    }
    DepthScope depth(*this);
    if (!depth.ok()) return;
    std::size_t i = 0;
    for (auto result : array) {
      od::value element;
      if (auto e = result.get(element)) {
        structural(e);
        return;
      }
      PathScope scope(steps_, {Step::kIndex, {}, i++});
      if (f.sub != nullptr) {
        // Bad elements stay as empty messages so indices keep matching the JSON's.
        read_message(element, put_message(m, f), *f.sub);
      } else {
        read_scalar(element, m, f, /*add=*/true);
      }
      if (fatal_) return;
    }
  }

  void read_keyed(od::value v, pb::Message& m, const FieldEntry& f) {
    od::object object;
    if (auto e = v.get_object().get(object)) {
      if (check(e) && !fatal_) {
        mismatch(v, fmt::format("an object keyed by name ({})", f.sub->descriptor->name()));
      }
      return;
    }
    DepthScope depth(*this);
    if (!depth.ok()) return;
    for (auto result : object) {
      od::field field;
      std::string_view key;
      const KeyStep step = next_key(std::move(result), field, key);
      if (step == KeyStep::kStop) return;
      if (step == KeyStep::kSkip) continue;
      pb::Message& entry = put_message(m, f);
      put_string(entry, *f.sub->key, /*add=*/false, key);
      PathScope scope(steps_, {Step::kKey, key});
      read_field(field.value(), entry, *f.sub->value);
      if (fatal_) return;
    }
  }

  // Integers keep their exact JSON spelling in messages: "1e999" or a 70-bit literal say
  // more than a parser's error code.
  std::string integer_problem(od::value& v, std::string_view bits) {
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
  bool read_integer(od::value& v, T& out) {
    if constexpr (std::is_signed_v<T>) {
      std::int64_t x;
      if (auto e = v.get_int64().get(x)) {
        if (check(e) && !fatal_) problem(integer_problem(v, "64"));
        return false;
      }
      if (x < std::numeric_limits<T>::min() || x > std::numeric_limits<T>::max()) {
        problem(integer_problem(v, std::to_string(sizeof(T) * 8)));
        return false;
      }
      out = static_cast<T>(x);
    } else {
      std::uint64_t x;
      if (auto e = v.get_uint64().get(x)) {
        if (check(e) && !fatal_) {
          problem(fmt::format("expected an unsigned integer, got {}", describe(v)));
        }
        return false;
      }
      if (x > std::numeric_limits<T>::max()) {
        problem(integer_problem(v, std::to_string(sizeof(T) * 8)));
        return false;
      }
      out = static_cast<T>(x);
    }
    return true;
  }

  static bool special_double(std::string_view s, double& out) {
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

  // Numbers, plus the infinities and NaN PyTorch writes either as strings or, through
  // Python's json module, as bare non-standard tokens.
  bool read_double(od::value& v, double& out) {
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

  void read_scalar(od::value v, pb::Message& m, const FieldEntry& f, bool add) {
    const pb::FieldDescriptor* fd = f.fd;
    const pb::Reflection* r = f.owner_reflection;
    switch (f.cpp_type) {
      case pb::FieldDescriptor::CPPTYPE_STRING: {
        const std::string_view token = trim(v.raw_json_token());
        const std::size_t token_size = token.size();
        std::string_view s;
        od::raw_json_string raw;
        if (token_size <= options_.max_string_bytes && token_size >= 2 &&
            token.front() == '"' && token.back() == '"' &&
            !has_backslash(token) && !v.get_raw_json_string().get(raw)) {
          // Nothing to unescape: copy straight from the input, skipping simdjson's buffer.
          put_string(m, f, add, token.substr(1, token_size - 2));
          return;
        }
        if (token_size > options_.max_string_bytes) {
          problem(fmt::format("string value of about {} bytes is longer than the limit of {} "
                              "bytes",
                              token_size, options_.max_string_bytes));
        } else if (auto e = v.get_string().get(s)) {
          if (check(e) && !fatal_) mismatch(v, "a string");
        } else {
          put_string(m, f, add, s);
          return;
        }
        if (add) put_string(m, f, add, {});
        return;
      }
      case pb::FieldDescriptor::CPPTYPE_INT64: {
        std::int64_t x = 0;
        read_integer(v, x);
        put_int64(m, f, add, x);
        return;
      }
      case pb::FieldDescriptor::CPPTYPE_INT32: {
        std::int32_t x = 0;
        read_integer(v, x);
        put_int32(m, f, add, x);
        return;
      }
      case pb::FieldDescriptor::CPPTYPE_ENUM: {
        std::int32_t x = 0;
        read_integer(v, x);
        add ? r->AddEnumValue(&m, fd, x) : r->SetEnumValue(&m, fd, x);
        return;
      }
      case pb::FieldDescriptor::CPPTYPE_UINT64: {
        std::uint64_t x = 0;
        read_integer(v, x);
        add ? r->AddUInt64(&m, fd, x) : r->SetUInt64(&m, fd, x);
        return;
      }
      case pb::FieldDescriptor::CPPTYPE_UINT32: {
        std::uint32_t x = 0;
        read_integer(v, x);
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

  od::document& doc_;
  const PaddedBytes& json_;
  const JsonReadOptions& options_;
  const JsonSource& source_;
  LoadReporter& reporter_;
  std::vector<Step> steps_;
  std::uint32_t depth_ = 0;
  bool fatal_ = false;
  bool have_document_ = false;
};

}  // namespace

struct JsonToProto::Impl {
  // simdjson's own depth limit sits above the walker's, so the walker always reports a too
  // deep document first; simdjson only asserts on it (in builds without NDEBUG).
  explicit Impl(const JsonReadOptions& o)
      : options(o), tables(SchemaTables::shared(o.use_field_setters)) {
    // iterate() keeps this depth when it grows the parser for a larger document.
    [[maybe_unused]] simdjson::error_code ignored =  // a failure resurfaces in iterate()
        parser.allocate(4096, std::size_t{o.max_depth} + 64);
  }
  JsonReadOptions options;
  od::parser parser;
  const SchemaTables& tables;
};

JsonToProto::JsonToProto(JsonReadOptions options)
    : impl_(std::make_unique<Impl>(options)) {}

JsonToProto::~JsonToProto() = default;

bool JsonToProto::read(const PaddedBytes& json, pb::Message& message, const JsonSource& source,
                       LoadReporter& reporter) {
  const MessageTable* table = impl_->tables.get(message.GetDescriptor());
  if (table == nullptr) {
    throw std::invalid_argument("JsonToProto reads messages of src/core/ir/program.proto only");
  }
  // A UTF-8 byte order mark is not JSON, but some editors add one.
  std::size_t skip = 0;
  if (json.view().substr(0, 3) == "\xEF\xBB\xBF") skip = 3;
  od::document doc;
  auto error = impl_->parser
                   .iterate(json.data() + skip, json.size() - skip, json.capacity() - skip)
                   .get(doc);
  Walker walker(doc, json, impl_->options, source, reporter);
  if (error) {
    walker.structural(error);
    return false;
  }
  walker.document_started();
  od::object root;
  if (auto e = doc.get_object().get(root)) {
    if (is_value_error(e)) {
      od::json_type type;
      std::string got = "not an object";
      if (!doc.type().get(type)) {
        got = type == od::json_type::array    ? "an array"
              : type == od::json_type::string ? "a string"
              : type == od::json_type::number ? "a number"
              : type == od::json_type::null   ? "null"
                                              : "true or false";
      }
      reporter.report(kMalformedProgram, source.program,
                      fmt::format("the JSON document is {}; expected an object ({})", got,
                                  message.GetDescriptor()->name()),
                      source.member);
    } else {
      walker.structural(e);
    }
    return false;
  }
  walker.read_root(root, message, *table);
  if (walker.fatal()) return false;
  // Past the root object the iterator has no location unless more tokens follow.
  const char* trailing = nullptr;
  if (!doc.current_location().get(trailing)) {
    reporter.report(kMalformedProgram, source.program,
                    fmt::format("unexpected content after the end of the JSON document at byte {}",
                                trailing - json.data()),
                    source.member);
    return false;
  }
  return true;
}

bool JsonToProto::has_top_level_key(const PaddedBytes& json,
                                    std::initializer_list<std::string_view> keys) {
  std::size_t skip = json.view().substr(0, 3) == "\xEF\xBB\xBF" ? 3 : 0;
  od::document doc;
  if (impl_->parser.iterate(json.data() + skip, json.size() - skip, json.capacity() - skip)
          .get(doc)) {
    return false;
  }
  od::object root;
  if (doc.get_object().get(root)) return false;
  for (auto result : root) {
    od::field field;
    if (std::move(result).get(field)) return false;
    std::string_view key;
    if (field.unescaped_key().get(key)) return false;
    for (std::string_view k : keys) {
      if (k == key) return true;
    }
  }
  return false;
}

}  // namespace pt2lint
