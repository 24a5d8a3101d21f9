#include "io/readers/json/simdjson_internals.h"

#include <memory>

namespace pt2lint::json_reader {
namespace {

// An explicit instantiation may name a private member: this reads one without changing
// simdjson.
template <typename Tag, typename Tag::type Member>
struct Expose {
  friend typename Tag::type member_of(Tag) { return Member; }
};

struct ParserImplementation {
  using type = std::unique_ptr<simdjson::internal::dom_parser_implementation> od::parser::*;
};
template struct Expose<ParserImplementation, &od::parser::implementation>;
ParserImplementation::type member_of(ParserImplementation);

struct DocumentIterator {
  using type = od::json_iterator od::document::*;
};
template struct Expose<DocumentIterator, &od::document::iter>;
DocumentIterator::type member_of(DocumentIterator);

}  // namespace

const simdjson::internal::dom_parser_implementation* stage1_of(const od::parser& parser) {
  return (parser.*member_of(ParserImplementation{})).get();
}

const std::uint32_t* next_token(od::document& doc) {
  return (doc.*member_of(DocumentIterator{})).position();
}

bool jump_over_unread_object(od::document& doc, const od::parser& parser, const char* start,
                             std::size_t size, std::uint32_t tokens) {
  const simdjson::internal::dom_parser_implementation* stage1 = stage1_of(parser);
  od::json_iterator& it = doc.*member_of(DocumentIterator{});
  if (stage1 == nullptr || tokens < 2 || size < 2) return false;
  const std::uint32_t* first = stage1->structural_indexes.get();
  const std::uint32_t* at = it.position();
  if (at < first || static_cast<std::size_t>(first + stage1->n_structural_indexes - at) < tokens) {
    return false;
  }
  if (reinterpret_cast<const char*>(it.peek(at)) != start ||
      reinterpret_cast<const char*>(it.peek(at + tokens - 1)) != start + size - 1) {
    return false;
  }
  // At an unread value the iterator is one level below its parent; a skip leaves it at the
  // parent's level, past the value. reenter_child() sets a position and a depth, one level
  // below the depth it starts from.
  const od::depth_t depth = it.depth();
  if (depth < 2) return false;
  it.ascend_to(depth - 1);
  it.ascend_to(depth - 2);
  it.reenter_child(at + tokens, depth - 1);
  return true;
}

}  // namespace pt2lint::json_reader
