// The JSON reader's fast path for ir::TensorMeta (json_walker.h): the well-formed case read
// straight into the message's generated fields; anything else is handed back to the generic
// reader, which reports it exactly as it always did.
#include "io/readers/json/json_walker.h"
#include "io/readers/json/simdjson_internals.h"

namespace pt2lint::json_reader {

inline Walker::Fast Walker::fast_symint(od::value v, ir::SymInt& out) {
  std::int64_t scanned;
  if (scan_as_int_object(v.raw_json_token().data(), scanned) != nullptr) {
    out.set_as_int(scanned);
    return Fast::kDone;
  }
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

// [{"as_int": n}, ...], scanned from the bytes: simdjson skips the list unread.
inline bool Walker::scan_symint_list(od::value& v, pb::RepeatedPtrField<ir::SymInt>& out) {
  const char* p = v.raw_json_token().data();
  if (*p != '[') return false;
  p = skip_space(p + 1);
  if (*p == ']') return true;
  for (;;) {
    std::int64_t x;
    if ((p = scan_as_int_object(p, x)) == nullptr) break;
    out.Add()->set_as_int(x);
    p = skip_space(p);
    if (*p == ']') return true;
    if (*p != ',') break;
    p = skip_space(p + 1);
  }
  out.Clear();
  return false;
}

inline Walker::Fast Walker::fast_symint_list(od::value v, pb::RepeatedPtrField<ir::SymInt>& out) {
  if (scan_symint_list(v, out)) return Fast::kDone;
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

inline Walker::Fast Walker::fast_device(od::value v, ir::Device& out) {
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
      std::string_view type;
      if (!plain_string(value, type)) return Fast::kGiveUp;
      out.set_type(type.data(), type.size());
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

bool Walker::fast_tensor_meta(od::object& object, const char* start, ir::TensorMeta& m) {
  // The generic reader would count two more levels (sizes, one SymInt).
  if (depth_ + 2 > options_.max_depth) return false;
  const char* end = json_.data() + json_.size();
  // When messages are shared, read_field has looked already.
  if (!share_tensor_metas_) {
    if (const ir::TensorMeta* seen = tensor_meta_repeats_.find(start, end)) {
      m.CopyFrom(*seen);
      return true;  // the object is left unread: its parent skips it
    }
  }
  // Just past the '{' (the object was opened, nothing of it read): where the count of its
  // tokens starts, for a later jump over a repeat (share_tensor_meta).
  const std::uint32_t* opened = next_token(doc_);
  const Fast r = fast_tensor_meta_fields(object, m);
  // Only an arena's message may be shared: the fields that point at it do not own it.
  if (r == Fast::kDone) {
    // Read to its end, the object's tokens run from the '{' before `opened` to here.
    const auto tokens = static_cast<std::uint32_t>(next_token(doc_) - (opened - 1));
    tensor_meta_repeats_.record(start, end, m, share_tensor_metas_ && m.GetArena() != nullptr,
                                tokens);
  }
  return settle(r, object, m);
}

bool Walker::share_tensor_meta(od::value& v, pb::Message& parent, const FieldEntry& f) {
  // Where read_message's fast path would run: the object one level down, its fields two more.
  if (f.fd->is_repeated() || depth_ + 3 > options_.max_depth) return false;
  const char* start = v.raw_json_token().data();
  const TensorMetaRepeats::Repeat* repeat =
      tensor_meta_repeats_.find_repeat(start, json_.data() + json_.size());
  if (repeat == nullptr) return false;
  // A copy (heap) or another arena's message cannot be pointed at.
  const google::protobuf::Arena* arena = repeat->message->GetArena();
  if (arena == nullptr || arena != parent.GetArena()) return false;
  f.owner_reflection->UnsafeArenaSetAllocatedMessage(
      &parent, const_cast<ir::TensorMeta*>(repeat->message), f.fd);
  // The same bytes from a '{' make the same tokens, so the value ends `tokens` on: the
  // iterator goes there at once instead of through its ~30 tokens. Where the index does not
  // bear that out, nothing moves and the parent skips the value token by token.
  if (repeat->tokens != 0) {
    (void)jump_over_unread_object(doc_, parser_, start, repeat->text.size(), repeat->tokens);
  }
  return true;  // the value is left unread, or jumped over
}

Walker::Fast Walker::fast_tensor_meta_fields(od::object& object, ir::TensorMeta& m) {
  enum : unsigned { kDtype = 1, kSizes = 2, kGrad = 4, kDevice = 8, kStrides = 16,
                    kOffset = 32, kLayout = 64 };
  unsigned seen = 0;
  Fast r = Fast::kDone;
  for (auto result : object) {
    od::field field;
    if (!next_field(std::move(result), field)) return Fast::kFatal;
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
  if (r == Fast::kDone && (seen & (kDtype | kSizes)) != (kDtype | kSizes)) r = Fast::kGiveUp;
  return r;
}

bool Walker::settle(Fast r, od::object& object, pb::Message& m) {
  if (r != Fast::kGiveUp) return true;
  m.Clear();
  // Back to the first field for the generic reader; at an object's start this cannot fail.
  bool has_fields = false;
  [[maybe_unused]] const simdjson::error_code e = object.reset().get(has_fields);
  return false;
}

}  // namespace pt2lint::json_reader
