// What the JSON reader needs of simdjson On-Demand that simdjson keeps in private or
// protected members: the stage-1 structural index (json_input_release.h gives its pages
// back behind the walk) and the document's token iterator (a repeated TensorMeta is jumped
// over instead of skipped token by token, tensor_meta_repeats.h; a second cursor reads a
// sibling value on another thread, json_walker_beside.cc). Checked against
// simdjson 3.0, the Debian package. Internal to src/io/readers/json_*.
#pragma once

#include <cstddef>
#include <cstdint>

#include <simdjson.h>

namespace pt2lint::json_reader {

namespace od = simdjson::ondemand;

// The parser's stage-1 implementation: the structural index of the last document it
// iterated. Null before the first.
const simdjson::internal::dom_parser_implementation* stage1_of(const od::parser& parser);

// The position of `doc`'s iterator in the structural index: the token it reads next.
const std::uint32_t* next_token(od::document& doc);

// Moves `doc`'s iterator past an object value nothing has read yet, as simdjson's skip of
// an unread value would leave it, without visiting its tokens. The object is `size` bytes
// of input at `start` and `tokens` structural tokens, '{' and '}' included. Moves nothing
// and returns false unless the iterator is at that '{', `tokens` later one token is that
// '}' and the index holds them.
bool jump_over_unread_object(od::document& doc, const od::parser& parser, const char* start,
                             std::size_t size, std::uint32_t tokens);

// A copy of `from`'s cursor in `to`: a second cursor over the same document, to read a
// value on another thread (copied on `from`'s thread), or that cursor's end taken back.
void copy_cursor(od::document& to, od::document& from);
// Moves a copied cursor to token `at`, a later sibling of the value it was copied at (same
// depth), or with `levels_up` 1 a later sibling of the object holding that value. Strings it unescapes then go to the parser's string buffer from `string_offset`
// on: the buffer is larger than the input, and the strings unescaped from input at or past
// an offset fit past that offset, so cursors reading disjoint spans of the input, each
// from its span's offset, never write the same bytes.
void move_cursor_to_sibling(od::document& doc, const od::parser& parser,
                            const std::uint32_t* at, std::size_t string_offset,
                            od::depth_t levels_up = 0);
// Moves a copied cursor, at an unread array, to token `at`, an element of that array, as
// if the array were opened and `at` were the element it is at; strings as above.
void move_cursor_into(od::document& doc, const od::parser& parser, const std::uint32_t* at,
                      std::size_t string_offset);
// The token iterator of `doc`, for a walk that steps through an array by hand (a second
// cursor reading the array's last elements, json_walker_beside.cc).
od::json_iterator& iterator_of(od::document& doc);
// The value a side cursor is at, unread.
od::value value_at_cursor(od::document& side);
}  // namespace pt2lint::json_reader
