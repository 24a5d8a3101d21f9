// The JSON reader's fast path for node arguments (json_walker.h): ir::NamedArgument and
// ir::Argument of the common kinds read straight into generated fields. Anything else is
// handed back to the generic reader, which reports it exactly as it always did. Node inputs
// and outputs are three nested objects per argument ({"name": .., "arg": {"as_tensor":
// {"name": ..}}, "kind": 1}); the generic reader's table lookups, reflection calls and depth
// and path bookkeeping for each cost more than the bytes they read.
#include <array>

#include "io/readers/json/json_walker.h"

namespace pt2lint::json_reader {
namespace {

// Levels the generic reader would count below the current one: the argument, a list in it
// and a tensor in the list.
constexpr std::uint32_t kArgumentLevels = 3;

enum class Kind : std::uint8_t {
  kTensor, kInt, kInts, kNone, kFloat, kTensors, kBool, kScalarType, kString, kLayout,
  kMemoryFormat,
};

struct KindKey {
  std::string_view key;
  Kind kind;
};

// The argument kinds read here, the most frequent first (kv_nested_256l: as_tensor, as_int,
// as_ints, as_none).
constexpr std::array<KindKey, 11> kKinds = {{
    {"as_tensor", Kind::kTensor},
    {"as_int", Kind::kInt},
    {"as_ints", Kind::kInts},
    {"as_none", Kind::kNone},
    {"as_float", Kind::kFloat},
    {"as_tensors", Kind::kTensors},
    {"as_bool", Kind::kBool},
    {"as_scalar_type", Kind::kScalarType},
    {"as_string", Kind::kString},
    {"as_layout", Kind::kLayout},
    {"as_memory_format", Kind::kMemoryFormat},
}};

const KindKey* find_kind(std::string_view key) {
  for (const KindKey& k : kKinds) {
    if (k.key == key) return &k;
  }
  return nullptr;
}

}  // namespace

inline Walker::Fast Walker::fast_tensor_argument(od::value v, ir::TensorArgument& out) {
  std::string_view scanned;
  if (scan_name_object(v.raw_json_token().data(), input_limit(), options_.max_string_bytes,
                       scanned) != nullptr) {
    out.set_name(std::string(scanned));  // simdjson skips the object unread
    return Fast::kDone;
  }
  od::object object;
  if (auto e = v.get_object().get(object)) return failed(e);
  bool named = false;
  for (auto result : object) {
    od::field field;
    if (!next_field(std::move(result), field)) return Fast::kFatal;
    std::string_view key;
    if (named || !plain_key(field, key) || key != "name") return Fast::kGiveUp;
    named = true;
    PathScope scope(steps_, {Step::kField, "name"});
    od::value value = field.value();
    std::string_view name;
    if (!plain_string(value, name)) return Fast::kGiveUp;
    out.set_name(std::string(name));
  }
  return named ? Fast::kDone : Fast::kGiveUp;
}

inline Walker::Fast Walker::fast_tensor_argument_list(od::value v, ir::TensorArgumentList& out) {
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
    if (const Fast r = fast_tensor_argument(element, *out.add_items()); r != Fast::kDone) {
      return r;
    }
  }
  return Fast::kDone;
}

inline Walker::Fast Walker::fast_int_list(od::value v, ir::IntList& out) {
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
    std::int64_t x;
    if (const Fast r = fast_int64(element, x); r != Fast::kDone) return r;
    out.add_items(x);
  }
  return Fast::kDone;
}

Walker::Fast Walker::fast_argument_fields(od::object& object, ir::Argument& out) {
  if (depth_ + kArgumentLevels > options_.max_depth) return Fast::kGiveUp;
  std::size_t count = 0;
  for (auto result : object) {
    od::field field;
    if (!next_field(std::move(result), field)) return Fast::kFatal;
    std::string_view key;
    // A second kind, an escaped key or a kind not read here: the generic reader's to report.
    if (++count > 1 || !plain_key(field, key)) return Fast::kGiveUp;
    const KindKey* kind = find_kind(key);
    if (kind == nullptr) return Fast::kGiveUp;
    PathScope scope(steps_, {Step::kField, kind->key});
    od::value v = field.value();
    Fast r = Fast::kDone;
    std::int64_t x64 = 0;
    std::int32_t x32 = 0;
    double real = 0;
    bool flag = false;
    std::string_view text;
    switch (kind->kind) {
      case Kind::kTensor: r = fast_tensor_argument(v, *out.mutable_as_tensor()); break;
      case Kind::kTensors: r = fast_tensor_argument_list(v, *out.mutable_as_tensors()); break;
      case Kind::kInts: r = fast_int_list(v, *out.mutable_as_ints()); break;
      case Kind::kInt:
        if ((r = fast_int64(v, x64)) == Fast::kDone) out.set_as_int(x64);
        break;
      case Kind::kNone: out.set_as_none(true); break;  // old writers put [] here: only the key counts
      case Kind::kFloat:
        if (auto e = v.get_double().get(real)) r = failed(e);  // Infinity and NaN: the generic reader's
        else out.set_as_float(real);
        break;
      case Kind::kBool:
        if (auto e = v.get_bool().get(flag)) r = failed(e);
        else out.set_as_bool(flag);
        break;
      case Kind::kString:
        if (!plain_string(v, text)) return Fast::kGiveUp;
        out.set_as_string(std::string(text));
        break;
      case Kind::kScalarType:
        if ((r = fast_int32(v, x32)) == Fast::kDone) out.set_as_scalar_type(x32);
        break;
      case Kind::kLayout:
        if ((r = fast_int32(v, x32)) == Fast::kDone) out.set_as_layout(x32);
        break;
      case Kind::kMemoryFormat:
        if ((r = fast_int32(v, x32)) == Fast::kDone) out.set_as_memory_format(x32);
        break;
    }
    if (r != Fast::kDone) return r;
  }
  return count == 1 ? Fast::kDone : Fast::kGiveUp;
}

Walker::Fast Walker::fast_named_argument_fields(od::object& object, ir::NamedArgument& out) {
  if (depth_ + kArgumentLevels > options_.max_depth) return Fast::kGiveUp;
  constexpr unsigned kName = 1, kArg = 2, kKind = 4;
  unsigned seen = 0;
  for (auto result : object) {
    od::field field;
    if (!next_field(std::move(result), field)) return Fast::kFatal;
    std::string_view key;
    if (!plain_key(field, key)) return Fast::kGiveUp;
    const unsigned bit = key == "name" ? kName : key == "arg" ? kArg : key == "kind" ? kKind : 0;
    if (bit == 0 || (seen & bit) != 0) return Fast::kGiveUp;  // unknown or repeated key
    seen |= bit;
    od::value v = field.value();
    Fast r = Fast::kDone;
    if (bit == kName) {
      PathScope scope(steps_, {Step::kField, "name"});
      std::string_view name;
      if (!plain_string(v, name)) return Fast::kGiveUp;
      out.set_name(std::string(name));
    } else if (bit == kArg) {
      PathScope scope(steps_, {Step::kField, "arg"});
      od::object arg;
      if (auto e = v.get_object().get(arg)) return failed(e);
      r = fast_argument_fields(arg, *out.mutable_arg());
    } else {
      PathScope scope(steps_, {Step::kField, "kind"});
      std::int32_t kind = 0;
      if ((r = fast_int32(v, kind)) == Fast::kDone) out.set_kind(kind);
    }
    if (r != Fast::kDone) return r;
  }
  return (seen & (kName | kArg)) == (kName | kArg) ? Fast::kDone : Fast::kGiveUp;
}

}  // namespace pt2lint::json_reader
