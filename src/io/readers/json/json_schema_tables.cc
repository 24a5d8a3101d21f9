#include "io/readers/json/json_schema_tables.h"

#include "program.pb.h"

namespace pt2lint::json_reader {
namespace {

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

}  // namespace

const SchemaTables& SchemaTables::shared(bool use_field_setters) {
  if (use_field_setters) {
    static const SchemaTables with_setters(true);
    return with_setters;
  }
  static const SchemaTables reflection_only(false);
  return reflection_only;
}

SchemaTables::SchemaTables(bool use_field_setters)
    : use_field_setters_(use_field_setters) {
  const pb::FileDescriptor* file = ir::Program::descriptor()->file();
  for (int i = 0; i < file->message_type_count(); ++i) table_of(file->message_type(i));
}

MessageTable& SchemaTables::table_of(const pb::Descriptor* d) {
  auto it = tables_.find(d);
  return it != tables_.end() ? *it->second : build(d);
}

MessageTable& SchemaTables::build(const pb::Descriptor* d) {
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
  // The fast readers write through generated accessors, so they are off with them.
  if (use_field_setters_) {
    if (d == ir::TensorMeta::descriptor()) t.fast = FastPath::kTensorMeta;
    if (d == ir::NamedArgument::descriptor()) t.fast = FastPath::kNamedArgument;
    if (d == ir::Argument::descriptor()) t.fast = FastPath::kArgument;
  }
  t.fields.reserve(static_cast<std::size_t>(d->field_count()));
  for (int i = 0; i < d->field_count(); ++i) {
    const pb::FieldDescriptor* fd = d->field(i);
    // pt2lint's own fields are no JSON key: a document naming one has it ignored, as any
    // key the reader does not know.
    if (fd->options().GetExtension(ir::internal)) continue;
    FieldEntry e;
    e.name = fd->name();
    e.fd = fd;
    e.index = static_cast<int>(t.fields.size());
    e.owner_reflection = t.reflection;
    e.required = fd->options().GetExtension(ir::required);
    e.in_oneof = fd->real_containing_oneof() != nullptr;
    e.repeated = fd->is_repeated();
    e.cpp_type = fd->cpp_type();
    e.as_none = fd->name() == "as_none" && fd->cpp_type() == pb::FieldDescriptor::CPPTYPE_BOOL;
    if (use_field_setters_) e.set = ir_field_setters(fd);
    e.node_metadata = fd == ir::Node::descriptor()->FindFieldByName("metadata");
    t.fields.push_back(e);
    if (e.required && e.index < 64) t.required_mask |= std::uint64_t{1} << e.index;
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

}  // namespace pt2lint::json_reader
