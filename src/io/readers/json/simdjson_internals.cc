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

struct ParserStringBuffer {
  using type = std::unique_ptr<std::uint8_t[]> od::parser::*;
};
template struct Expose<ParserStringBuffer, &od::parser::string_buf>;
ParserStringBuffer::type member_of(ParserStringBuffer);

// The constructors of a value and of its iterator are protected: a derived class may call them.
struct ValueIteratorAt : od::value_iterator {
  ValueIteratorAt(od::json_iterator* iter, od::depth_t depth, od::token_position at)
      : od::value_iterator(iter, depth, at) {}
};
struct ValueAt : od::value {
  explicit ValueAt(const od::value_iterator& iter) : od::value(iter) {}
};

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

void copy_cursor(od::document& to, od::document& from) {
  to.*member_of(DocumentIterator{}) = od::json_iterator(from.*member_of(DocumentIterator{}));
}

void move_cursor_to_sibling(od::document& doc, const od::parser& parser,
                            const std::uint32_t* at, std::size_t string_offset,
                            od::depth_t levels_up) {
  od::json_iterator& it = doc.*member_of(DocumentIterator{});
  // An unread value's iterator is one level below its parent's, as in jump_over_unread_object;
  // it ascends one level at a time.
  const od::depth_t depth = it.depth() - levels_up;
  for (od::depth_t d = it.depth() - 1; d >= depth - 1; --d) it.ascend_to(d);
  it.reenter_child(at, depth);
  it.string_buf_loc() = (parser.*member_of(ParserStringBuffer{})).get() + string_offset;
}

void move_cursor_into(od::document& doc, const od::parser& parser, const std::uint32_t* at,
                      std::size_t string_offset) {
  od::json_iterator& it = doc.*member_of(DocumentIterator{});
  it.reenter_child(at, it.depth() + 1);
  it.string_buf_loc() = (parser.*member_of(ParserStringBuffer{})).get() + string_offset;
}

od::json_iterator& iterator_of(od::document& doc) { return doc.*member_of(DocumentIterator{}); }

od::value value_at_cursor(od::document& side) {
  od::json_iterator& it = side.*member_of(DocumentIterator{});
  return ValueAt(ValueIteratorAt(&it, it.depth(), it.position()));
}

}  // namespace pt2lint::json_reader
