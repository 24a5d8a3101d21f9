#include "io/writers/program_json_writer.h"

#include <string_view>

#include <google/protobuf/descriptor.h>
#include <google/protobuf/reflection.h>

#include "io/writers/python_json_text.h"
#include "program.pb.h"

namespace pt2lint {
namespace {

namespace pb = google::protobuf;

bool is_union(const pb::Descriptor* d) {
  return d->oneof_decl_count() == 1 && d->oneof_decl(0)->name() == "kind" &&
         d->oneof_decl(0)->field_count() == d->field_count();
}

bool is_items_wrapper(const pb::Descriptor* d) {
  return d->field_count() == 1 && d->field(0)->name() == "items" && d->field(0)->is_repeated();
}

bool is_key_value_entry(const pb::Descriptor* d) {
  return d->field_count() == 2 && d->field(0)->name() == "key" && d->field(1)->name() == "value";
}

// Fields the IR keeps for older schemas that PyTorch 2.11 no longer writes, and pt2lint's own.
bool is_not_written(const pb::FieldDescriptor* fd) {
  return fd->full_name() == "pt2lint.ir.ExportedProgram.dialect" ||
         fd->options().GetExtension(ir::internal);
}

class Writer {
 public:
  explicit Writer(std::string& out) : out_(out) {}

  void message(const pb::Message& m) {
    const pb::Descriptor* d = m.GetDescriptor();
    if (is_union(d)) {
      union_value(m);
    } else if (is_items_wrapper(d)) {
      field(m, d->field(0));
    } else {
      struct_value(m);
    }
  }

 private:
  void struct_value(const pb::Message& m) {
    const pb::Descriptor* d = m.GetDescriptor();
    out_ += '{';
    bool first = true;
    for (int i = 0; i < d->field_count(); ++i) {
      const pb::FieldDescriptor* fd = d->field(i);
      if (is_not_written(fd)) continue;
      if (!first) out_ += ", ";
      first = false;
      append_json_string(out_, fd->name());
      out_ += ": ";
      field(m, fd);
    }
    out_ += '}';
  }

  void union_value(const pb::Message& m) {
    const pb::Reflection* r = m.GetReflection();
    const pb::FieldDescriptor* fd = r->GetOneofFieldDescriptor(m, m.GetDescriptor()->oneof_decl(0));
    if (fd == nullptr) {
      out_ += "null";  // an empty union cannot be spelled; the loader reports it as malformed
      return;
    }
    out_ += '{';
    append_json_string(out_, fd->name());
    out_ += ": ";
    field(m, fd);
    out_ += '}';
  }

  void field(const pb::Message& m, const pb::FieldDescriptor* fd) {
    const pb::Reflection* r = m.GetReflection();
    if (fd->is_repeated()) {
      const bool keyed = fd->cpp_type() == pb::FieldDescriptor::CPPTYPE_MESSAGE &&
                         is_key_value_entry(fd->message_type());
      keyed ? keyed_object(m, fd) : list(m, fd);
      return;
    }
    if (fd->has_presence() && !r->HasField(m, fd)) {
      out_ += "null";
      return;
    }
    switch (fd->cpp_type()) {
      case pb::FieldDescriptor::CPPTYPE_MESSAGE: message(r->GetMessage(m, fd)); return;
      case pb::FieldDescriptor::CPPTYPE_STRING: append_json_string(out_, r->GetString(m, fd)); return;
      case pb::FieldDescriptor::CPPTYPE_BOOL: out_ += r->GetBool(m, fd) ? "true" : "false"; return;
      case pb::FieldDescriptor::CPPTYPE_INT32: append_int(out_, r->GetInt32(m, fd)); return;
      case pb::FieldDescriptor::CPPTYPE_INT64: append_int(out_, r->GetInt64(m, fd)); return;
      case pb::FieldDescriptor::CPPTYPE_UINT32: append_int(out_, r->GetUInt32(m, fd)); return;
      case pb::FieldDescriptor::CPPTYPE_UINT64:
        append_int(out_, static_cast<std::int64_t>(r->GetUInt64(m, fd)));
        return;
      case pb::FieldDescriptor::CPPTYPE_DOUBLE: append_python_float(out_, r->GetDouble(m, fd)); return;
      case pb::FieldDescriptor::CPPTYPE_FLOAT: append_python_float(out_, r->GetFloat(m, fd)); return;
      case pb::FieldDescriptor::CPPTYPE_ENUM: append_int(out_, r->GetEnumValue(m, fd)); return;
    }
  }

  void list(const pb::Message& m, const pb::FieldDescriptor* fd) {
    const pb::Reflection* r = m.GetReflection();
    const int n = r->FieldSize(m, fd);
    out_ += '[';
    for (int i = 0; i < n; ++i) {
      if (i > 0) out_ += ", ";
      switch (fd->cpp_type()) {
        case pb::FieldDescriptor::CPPTYPE_MESSAGE: message(r->GetRepeatedMessage(m, fd, i)); break;
        case pb::FieldDescriptor::CPPTYPE_STRING:
          append_json_string(out_, r->GetRepeatedString(m, fd, i));
          break;
        case pb::FieldDescriptor::CPPTYPE_BOOL:
          out_ += r->GetRepeatedBool(m, fd, i) ? "true" : "false";
          break;
        case pb::FieldDescriptor::CPPTYPE_INT32: append_int(out_, r->GetRepeatedInt32(m, fd, i)); break;
        case pb::FieldDescriptor::CPPTYPE_INT64: append_int(out_, r->GetRepeatedInt64(m, fd, i)); break;
        case pb::FieldDescriptor::CPPTYPE_UINT32: append_int(out_, r->GetRepeatedUInt32(m, fd, i)); break;
        case pb::FieldDescriptor::CPPTYPE_UINT64:
          append_int(out_, static_cast<std::int64_t>(r->GetRepeatedUInt64(m, fd, i)));
          break;
        case pb::FieldDescriptor::CPPTYPE_DOUBLE:
          append_python_float(out_, r->GetRepeatedDouble(m, fd, i));
          break;
        case pb::FieldDescriptor::CPPTYPE_FLOAT:
          append_python_float(out_, r->GetRepeatedFloat(m, fd, i));
          break;
        case pb::FieldDescriptor::CPPTYPE_ENUM: append_int(out_, r->GetRepeatedEnumValue(m, fd, i)); break;
      }
    }
    out_ += ']';
  }

  void keyed_object(const pb::Message& m, const pb::FieldDescriptor* fd) {
    const pb::Reflection* r = m.GetReflection();
    const int n = r->FieldSize(m, fd);
    const pb::Descriptor* entry = fd->message_type();
    out_ += '{';
    for (int i = 0; i < n; ++i) {
      if (i > 0) out_ += ", ";
      const pb::Message& e = r->GetRepeatedMessage(m, fd, i);
      append_json_string(out_, e.GetReflection()->GetString(e, entry->field(0)));
      out_ += ": ";
      field(e, entry->field(1));
    }
    out_ += '}';
  }

  std::string& out_;
};

}  // namespace

std::string to_pytorch_json(const google::protobuf::Message& message) {
  std::string out;
  out.reserve(static_cast<std::size_t>(message.ByteSizeLong()) * 2 + 64);
  Writer(out).message(message);
  return out;
}

}  // namespace pt2lint
