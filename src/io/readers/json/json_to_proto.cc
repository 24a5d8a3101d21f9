// JsonToProto (json_to_proto.h): one simdjson parser per reader, the document opened and
// handed to the walk (json_walker.h) with the schema tables (json_schema_tables.h), and the
// cheap top-level key check used when walking folders.
#include "io/readers/json/json_to_proto.h"

#include <optional>
#include <stdexcept>
#include <string>

#include <fmt/format.h>
#include <simdjson.h>

#include "io/readers/json/json_document.h"
#include "io/readers/json/json_schema_tables.h"
#include "io/readers/json/json_walker.h"
#include "io/readers/json/simdjson_internals.h"
#include "core/rule_catalogue.h"
#include "program.pb.h"

namespace pt2lint {

using json_reader::SchemaTables;
using json_reader::MessageTable;
using json_reader::Walker;
using json_reader::is_value_error;
namespace od = simdjson::ondemand;
namespace pb = google::protobuf;

static_assert(PaddedBytes::kPadding >= simdjson::SIMDJSON_PADDING);

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
                       LoadReporter& reporter, InputDiscard discard,
                       pb::RepeatedPtrField<std::string>* interned_strings, ReadBeside* beside) {
  const MessageTable* table = impl_->tables.get(message.GetDescriptor());
  if (table == nullptr) {
    // Not a Status: a programming error (a caller passing a message type outside
    // program.proto), which no input can cause and the first test of such a call finds.
    throw std::invalid_argument("JsonToProto reads messages of src/core/ir/program.proto only");
  }
  od::document doc;
  auto error = json_reader::iterate_document(impl_->parser, json).get(doc);
  const simdjson::internal::dom_parser_implementation* stage1 = json_reader::stage1_of(impl_->parser);
  const std::size_t skip = json_reader::bom_length(json);
  json_reader::InputRelease release(json.data() + skip, json.size() - skip,
                                    stage1 ? stage1->structural_indexes.get() : nullptr,
                                    stage1 ? stage1->n_structural_indexes : 0, discard);
  std::optional<json_reader::MetadataInterner> interner;
  if (interned_strings != nullptr) interner.emplace(*interned_strings);
  Walker walker(doc, impl_->parser, json, impl_->options, source, reporter, &release,
                interner ? &*interner : nullptr);
  if (beside != nullptr) walker.read_beside(beside->hand_off);
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
  if (walker.finish_beside()) {
    beside->read_again = true;
    return false;
  }
  if (beside != nullptr) {
    beside->nodes_read_beside = walker.nodes_read_beside();
    beside->tensor_values_read_beside = walker.tensor_values_read_beside();
    beside->module_tail_read_beside = walker.module_tail_read_beside();
  }
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
  od::document doc;
  od::object root;
  if (!json_reader::open_root_object(impl_->parser, json, doc, root)) return false;
  bool found = false;
  json_reader::for_each_field(root, [&](std::string_view key, od::field&) {
    for (std::string_view k : keys) found = found || k == key;
    return !found;
  });
  return found;
}

}  // namespace pt2lint
