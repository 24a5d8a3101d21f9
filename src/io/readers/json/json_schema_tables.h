// The reader's view of the IR schema (src/core/ir/program.proto), for json_to_proto.cc: one
// table per message type with its fields, their JSON shapes (struct, single-key union, wrapped
// list, keyed object) and their generated setters, built once per process; and the writes of
// one scalar or sub-message into a field, through its setter or else reflection.
#pragma once

#include <cstdint>
#include <cstring>
#include <memory>
#include <string>
#include <string_view>
#include <unordered_map>
#include <vector>

#include <google/protobuf/descriptor.h>
#include <google/protobuf/message.h>

#include "io/readers/json/ir_field_setters.h"

namespace pt2lint::json_reader {

namespace pb = google::protobuf;

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
  bool node_metadata = false;  // Node.metadata: interned when the read asks (metadata_interner.h)
  bool repeated = false;  // fd->is_repeated() and fd->cpp_type(), kept here: read per value
  pb::FieldDescriptor::CppType cpp_type = pb::FieldDescriptor::CPPTYPE_INT32;
  FieldSetters set;  // generated accessors; a null slot means reflection
};

enum class Shape {
  kStruct,   // JSON object keyed by field name
  kUnion,    // single-key JSON object naming one field of `oneof kind`
  kWrapper,  // one repeated field `items`: the JSON value is that list (or keyed object)
};

// The hand-written readers of the messages that make up most of a program (json_walker.h):
// each reads the well-formed case straight into generated fields, or hands the message back.
enum class FastPath : std::uint8_t {
  kNone,
  kTensorMeta,     // ir::TensorMeta: about half of a program's values
  kNamedArgument,  // ir::NamedArgument: every node input
  kArgument,       // ir::Argument: every node output, and the value of every input
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
  // The hot messages a fast reader tries first (json_walker.h), before the generic one.
  FastPath fast = FastPath::kNone;

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

// Tables for every message of the IR (src/core/ir/program.proto), built once per process on
// first use and only read after that: readers on any thread share them. Building them per
// file cost ~5% of checking a folder of small programs.
class SchemaTables {
 public:
  // The reflection-only tables serve tests that compare both ways of writing; the checker
  // never builds them.
  static const SchemaTables& shared(bool use_field_setters);

  // Null for a message that is not part of the IR.
  const MessageTable* get(const pb::Descriptor* d) const {
    auto it = tables_.find(d);
    return it == tables_.end() ? nullptr : it->second.get();
  }

 private:
  explicit SchemaTables(bool use_field_setters);
  MessageTable& table_of(const pb::Descriptor* d);
  MessageTable& build(const pb::Descriptor* d);

  bool use_field_setters_;
  std::unordered_map<const pb::Descriptor*, std::unique_ptr<MessageTable>> tables_;
};

// Writes one scalar to a field: through its generated setter when it has one, else through
// reflection (`add` for repeated fields). Both give the same message.
inline void put_string(pb::Message& m, const FieldEntry& f, bool add, std::string_view s) {
  if (f.set.string != nullptr) return f.set.string(m, s);
  const pb::Reflection* r = f.owner_reflection;
  add ? r->AddString(&m, f.fd, std::string(s)) : r->SetString(&m, f.fd, std::string(s));
}
inline void put_int64(pb::Message& m, const FieldEntry& f, bool add, std::int64_t x) {
  if (f.set.int64 != nullptr) return f.set.int64(m, x);
  add ? f.owner_reflection->AddInt64(&m, f.fd, x) : f.owner_reflection->SetInt64(&m, f.fd, x);
}
inline void put_int32(pb::Message& m, const FieldEntry& f, bool add, std::int32_t x) {
  if (f.set.int32 != nullptr) return f.set.int32(m, x);
  add ? f.owner_reflection->AddInt32(&m, f.fd, x) : f.owner_reflection->SetInt32(&m, f.fd, x);
}
inline void put_bool(pb::Message& m, const FieldEntry& f, bool add, bool x) {
  if (f.set.boolean != nullptr) return f.set.boolean(m, x);
  add ? f.owner_reflection->AddBool(&m, f.fd, x) : f.owner_reflection->SetBool(&m, f.fd, x);
}
inline void put_double(pb::Message& m, const FieldEntry& f, bool add, double x) {
  if (f.set.real != nullptr) return f.set.real(m, x);
  add ? f.owner_reflection->AddDouble(&m, f.fd, x) : f.owner_reflection->SetDouble(&m, f.fd, x);
}
// The sub-message a message field's value is read into: mutable_<f>() or add_<f>().
inline pb::Message& put_message(pb::Message& m, const FieldEntry& f) {
  if (f.set.message != nullptr) return *f.set.message(m);
  return f.fd->is_repeated() ? *f.owner_reflection->AddMessage(&m, f.fd)
                             : *f.owner_reflection->MutableMessage(&m, f.fd);
}

}  // namespace pt2lint::json_reader
