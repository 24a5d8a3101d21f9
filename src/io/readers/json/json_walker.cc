// The JSON reader's generic walk (json_walker.h): any IR message read field by field as its
// MessageTable says (struct, single-key union, list, keyed object), with the JSON path of each
// problem it reports and the structural errors that end the document.
#include "io/readers/json/json_walker.h"

#include <algorithm>
#include <memory>

#include <fmt/format.h>

#include "core/rule_catalogue.h"
#include "support/name_table.h"

namespace pt2lint::json_reader {
namespace {

// The keys of one large JSON map, for the duplicate-key check: copies in blocks (the walk gives
// back input it has passed, json_input_release.h, so a view of an earlier key may read zeros
// later) in a NameTable of views of the copies. The std::unordered_set<std::string> it
// replaces allocated a node per key: 20,232 new/delete pairs and 9.7 M instructions on
// kv_nested_256l (tensor_values has 9,222 keys); this costs a block per 64 KB of keys.
class SeenMapKeys {
 public:
  // True when `key` was added before; otherwise adds it.
  bool add(std::string_view key) {
    const std::size_t before = keys_.size();
    keys_.intern(key, [this](std::string_view fresh) { return copy(fresh); });
    return keys_.size() == before;
  }

 private:
  static constexpr std::size_t kBlock = std::size_t{64} << 10;

  std::string_view copy(std::string_view key) {
    if (blocks_.empty() || key.size() > block_size_ - block_used_) {
      block_size_ = std::max(kBlock, key.size());  // a key over 64 KB gets a block of its own
      blocks_.push_back(std::make_unique<char[]>(block_size_));
      block_used_ = 0;
    }
    char* to = blocks_.back().get() + block_used_;
    std::copy(key.begin(), key.end(), to);
    block_used_ += key.size();
    return {to, key.size()};
  }

  NameTable keys_;
  std::vector<std::unique_ptr<char[]>> blocks_;
  std::size_t block_size_ = 0;
  std::size_t block_used_ = 0;
};

// "an integer", "a string", ...: what a field's JSON value should be. Out of line: it is an
// error path of the hot read_field, which stays small enough to inline where it is called.
[[gnu::noinline]] const char* type_name(const pb::FieldDescriptor* fd) {
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

}  // namespace

std::string shown(std::string_view s, std::size_t limit) {
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

void Walker::structural(simdjson::error_code e) {
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

inline std::string Walker::path() const {
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

inline bool Walker::key_of(od::field& field, std::string_view& key) {
  if (plain_key(field, key)) return true;
  if (auto e = field.unescaped_key().get(key)) {
    if (check(e) && !fatal_) problem("an object key is not a valid JSON string");
    return false;
  }
  return true;
}

// Inline: called once per field of every struct (1.6 M instructions out of line).
inline bool Walker::already_seen(int index, std::uint64_t& seen, std::vector<bool>& beyond_64) {
  if (index < 64) {
    const std::uint64_t bit = std::uint64_t{1} << index;
    const bool was = (seen & bit) != 0;
    seen |= bit;
    return was;
  }
  const auto i = static_cast<std::size_t>(index - 64);
  if (beyond_64.size() <= i) beyond_64.resize(i + 1);
  const bool was = beyond_64[i];
  beyond_64[i] = true;
  return was;
}

void Walker::duplicate_key(std::string_view key, std::string_view where) {
  problem(fmt::format("key '{}' appears more than once in {}; Python's json.loads, which "
                      "torch.export.load uses, keeps only the last copy, so PyTorch loads a "
                      "different program from the one the first copy describes; torch.export.save "
                      "never writes a repeated key. pt2lint read only the first copy, so its "
                      "other findings here describe that one: write the file again with "
                      "torch.export.save",
                      shown(key), where));
}

void Walker::problem(std::string message) {
  reporter_.report(kMalformedProgram, source_.program, std::move(message), source_.member,
                   path());
}

std::string Walker::describe(od::value& v) {
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

void Walker::mismatch(od::value& v, std::string_view expected) {
  problem(fmt::format("expected {}, got {}", expected, describe(v)));
}

inline void Walker::read_message(od::value v, pb::Message& m, const MessageTable& t) {
  if (t.shape == Shape::kWrapper) {
    read_field(v, m, t.fields[0]);
    return;
  }
  // Taken before the object is: then the value has no token to show.
  const char* start = t.fast == FastPath::kTensorMeta ? v.raw_json_token().data() : nullptr;
  od::object object;
  if (auto e = v.get_object().get(object)) {
    if (check(e) && !fatal_) {
      if (t.shape == Shape::kUnion) {
        mismatch(v, fmt::format("a single-key object naming one {} kind ({})", t.words,
                                t.valid_tags));
      } else {
        mismatch(v, fmt::format("an object ({})", t.descriptor->name()));
      }
    }
    return;
  }
  DepthScope depth(*this);
  if (!depth.ok()) return;
  switch (t.fast) {
    case FastPath::kNone: break;
    case FastPath::kTensorMeta:
      if (fast_tensor_meta(object, start, static_cast<ir::TensorMeta&>(m))) return;
      break;
    case FastPath::kNamedArgument:
      if (fast_named_argument(object, static_cast<ir::NamedArgument&>(m))) return;
      break;
    case FastPath::kArgument:
      if (fast_argument(object, static_cast<ir::Argument&>(m))) return;
      break;
  }
  if (t.shape == Shape::kUnion) {
    read_union_fields(object, m, t);
  } else {
    read_struct_fields(object, m, t);
  }
}

void Walker::read_struct_fields(od::object& object, pb::Message& m, const MessageTable& t) {
  std::uint64_t seen = 0;
  std::vector<bool> seen_beyond_64;  // only for messages of more than 64 fields (none today)
  const bool read = for_each_key(object, [&](std::string_view key, od::field& field) {
    const FieldEntry* f = t.find(key);
    if (f == nullptr) return true;  // newer writers add fields; older readers ignore them too
    PathScope scope(steps_, {Step::kField, f->name});
    if (already_seen(f->index, seen, seen_beyond_64)) {
      duplicate_key(key, t.descriptor->name());
      return true;  // neither copy is merged into the other
    }
    if (beside_ != nullptr && side_ == nullptr && t.descriptor == ir::GraphModule::descriptor() &&
        f->name == "graph") {
      graph_module_ = &m;
      graph_module_table_ = &t;
      graph_module_seen_ = seen;
    }
    if (beside_ != nullptr && t.descriptor == ir::Graph::descriptor()) {
      if (side_ == nullptr && f->name == "nodes") start_beside(m, t, seen);
      if (side_ != nullptr && take_beside(m, *f)) return !fatal_;
    }
    if (side_ != nullptr && t.descriptor == ir::GraphModule::descriptor() && take_tail(m, *f)) {
      return !fatal_;
    }
    read_field(field.value(), m, *f);
    return !fatal_;
  });
  if (!read) return;
  const std::uint64_t missing = t.required_mask & ~seen;
  if (missing == 0) return;
  for (const auto& f : t.fields) {
    if (f.index < 64 && (missing >> f.index & 1)) {
      problem(fmt::format("missing required field '{}' of {}", f.name, t.descriptor->name()));
    }
  }
}

inline void Walker::read_union_fields(od::object& object, pb::Message& m,
                                      const MessageTable& t) {
  std::size_t count = 0;
  std::string_view first_tag;  // points into the input or simdjson's string buffer
  const bool read = for_each_key(object, [&](std::string_view key, od::field& field) {
    if (++count > 1) {
      if (count == 2 && key == first_tag) {
        duplicate_key(key, t.descriptor->name());
      } else if (count == 2) {
        problem(fmt::format("{} holds two kinds, '{}' and '{}'; a union holds exactly one",
                            t.descriptor->name(), shown(first_tag), shown(key)));
      }
      return true;
    }
    first_tag = key;
    const FieldEntry* f = t.find(key);
    if (f == nullptr) {
      problem(fmt::format("unknown {} kind '{}'; expected one of {}", t.words, shown(key),
                          t.valid_tags));
      return true;
    }
    PathScope scope(steps_, {Step::kField, f->name});
    read_field(field.value(), m, *f);
    return !fatal_;
  });
  if (!read) return;
  if (count == 0) {
    problem(fmt::format("empty {} object; expected exactly one kind of {}", t.words,
                        t.valid_tags));
  }
}

inline void Walker::read_field(od::value v, pb::Message& m, const FieldEntry& f) {
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
    if (share_tensor_metas_ && f.sub->fast == FastPath::kTensorMeta && share_tensor_meta(v, m, f)) {
      return;
    }
    read_message(v, put_message(m, f), *f.sub);
    return;
  }
  read_scalar(v, m, f, /*add=*/false);
}

void Walker::read_field_out_of_line(od::value v, pb::Message& m, const FieldEntry& f) {
  read_field(v, m, f);
}

void Walker::read_message_out_of_line(od::value v, pb::Message& m, const MessageTable& t) {
  read_message(v, m, t);
}

inline void Walker::read_list(od::value v, pb::Message& m, const FieldEntry& f) {
  od::array array;
  if (auto e = v.get_array().get(array)) {
    if (check(e) && !fatal_) mismatch(v, "a list");
    return;
  }
  DepthScope depth(*this);
  if (!depth.ok()) return;
  // The top-level graph's nodes, whose last elements another thread may be reading.
  const bool split = side_ != nullptr && beside_ != nullptr && is_split_list(m, f);
  std::size_t i = 0;
  for (auto result : array) {
    od::value element;
    if (auto e = result.get(element)) {
      structural(e);
      return;
    }
    if (split && take_nodes(m)) {
      if (fatal_) return;
      continue;  // at the list's ']'
    }
    PathScope scope(steps_, {Step::kIndex, {}, i++});
    release_->passed(element.raw_json_token().data());
    if (f.sub != nullptr) {
      // Bad elements stay as empty messages so indices keep matching the JSON's.
      read_message(element, put_message(m, f), *f.sub);
    } else {
      read_scalar(element, m, f, /*add=*/true);
    }
    if (fatal_) return;
  }
}

inline void Walker::read_keyed(od::value v, pb::Message& m, const FieldEntry& f) {
  od::object object;
  if (auto e = v.get_object().get(object)) {
    if (check(e) && !fatal_) {
      mismatch(v, fmt::format("an object keyed by name ({})", f.sub->descriptor->name()));
    }
    return;
  }
  DepthScope depth(*this);
  if (!depth.ok()) return;
  // Copies of the keys seen (most fit std::string's inline buffer): the walk gives back input
  // it has passed (json_input_release.h), so a view of an earlier key may read zeros later.
  // Most maps (node metadata) hold a few keys: those are compared in place, and a hash set
  // is made only for a larger map, so the check stays linear without costing small maps.
  constexpr std::size_t kInPlace = 8;
  std::string first_keys[kInPlace];
  std::size_t count = 0;
  SeenMapKeys keys;
  const auto repeated = [&](std::string_view key) {
    if (count < kInPlace) {
      for (std::size_t i = 0; i < count; ++i) {
        if (first_keys[i] == key) return true;
      }
      first_keys[count++] = key;
      return false;
    }
    if (count++ == kInPlace) {
      for (const std::string& k : first_keys) keys.add(k);
    }
    return keys.add(key);
  };
  ir::Node* interned = f.node_metadata && interner_ != nullptr ? &static_cast<ir::Node&>(m) : nullptr;
  for_each_key(object, [&](std::string_view key, od::field& field) {
    // The key as read: for a plain key, a view into the input (the same bytes as field.key()),
    // for an escaped one, simdjson's string buffer, which passed() ignores. field.key() itself
    // is gone once unescaped_key() consumed it (simdjson asserts on it in debug builds).
    release_->passed(key.data());
    PathScope scope(steps_, {Step::kKey, key});
    if (repeated(key)) {
      duplicate_key(key, fmt::format("the map of {}", f.sub->descriptor->name()));
      return true;
    }
    if (interned != nullptr) {
      interned->add_interned_metadata(interner_->intern(key));
      interned->add_interned_metadata(read_interned_value(field.value(), *f.sub->value));
      return !fatal_;
    }
    pb::Message& entry = put_message(m, f);
    put_string(entry, *f.sub->key, /*add=*/false, key);
    read_field(field.value(), entry, *f.sub->value);
    return !fatal_;
  });
}

std::uint32_t Walker::read_interned_value(od::value v, const FieldEntry& f) {
  const std::string_view token = trim(v.raw_json_token());
  if (token.size() < 2 || token.size() > options_.max_string_bytes || token.front() != '"' ||
      token.back() != '"') {
    // Not a string, or too long: read as a key/value entry would be, for the same findings
    // ("" then).
    metadata_entry_.clear_value();
    read_field(v, metadata_entry_, f);
    return interner_->intern(metadata_entry_.value());
  }
  if (!has_backslash(token)) {
    std::string_view text;
    return interner_->intern(read_string(v, text) ? text : std::string_view());
  }
  // The same escaped text unescapes to the same value: stack traces repeat per layer, so most
  // are found here without unescaping or copying them again.
  if (const int id = interner_->find_escaped(token); id >= 0) {
    return static_cast<std::uint32_t>(id);
  }
  std::string_view text;
  if (!read_string(v, text)) return interner_->intern({});
  return interner_->intern_escaped(token, text);
}

}  // namespace pt2lint::json_reader
