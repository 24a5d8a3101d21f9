// Node metadata interned while it is read (program.proto, Node.interned_metadata): each
// distinct key and value stored once, in the program's node_metadata_strings, and every node
// holding indices. At 4,096 layers 90k nodes carry 18 distinct stack traces; as key/value
// messages their copies were the largest part of the IR. Internal to src/io/readers/json_*.
#pragma once

#include <cstdint>
#include <deque>
#include <string>
#include <string_view>
#include <vector>

#include <google/protobuf/repeated_ptr_field.h>

#include "support/name_table.h"

namespace pt2lint::json_reader {

class MetadataInterner {
 public:
  explicit MetadataInterner(google::protobuf::RepeatedPtrField<std::string>& strings)
      : strings_(strings) {}

  // The index of `s` in the strings, added when it is new. The table borrows the stored
  // copy, which stays put: the field holds its strings by pointer.
  std::uint32_t intern(std::string_view s) {
    return static_cast<std::uint32_t>(ids_.intern(s, [this](std::string_view fresh) {
      std::string* stored = strings_.Add();
      stored->assign(fresh.data(), fresh.size());
      return std::string_view(*stored);
    }));
  }

  // intern() for a string another interner kept, with its NameTable::hash: a new one is
  // moved in, not copied. What `s` holds afterwards is unspecified.
  std::uint32_t intern_moved(std::string& s, std::uint64_t hash) {
    return static_cast<std::uint32_t>(ids_.intern_hashed(s, hash, [&](std::string_view) {
      std::string* stored = strings_.Add();
      *stored = std::move(s);
      return std::string_view(*stored);
    }));
  }

  // Room for `more` strings than there are.
  void reserve_more(std::size_t more) { ids_.reserve(static_cast<std::size_t>(strings_.size()) + more); }

  // The index of the value whose JSON text, escapes and quotes included, is `raw`, when
  // intern_escaped() saw that text before; -1 otherwise.
  int find_escaped(std::string_view raw) const {
    const int i = escaped_ids_.find(raw);
    return i == NameTable::kAbsent ? -1 : static_cast<int>(escaped_values_[static_cast<std::size_t>(i)]);
  }

  // intern(text) for `text`, the unescaped value of `raw`, remembering `raw` for
  // find_escaped(). Only distinct escaped texts are kept: 18 at any depth of kv_nested.
  std::uint32_t intern_escaped(std::string_view raw, std::string_view text) {
    const std::uint32_t id = intern(text);
    if (escaped_ids_.find(raw) == NameTable::kAbsent) {
      escaped_ids_.intern(raw, [this](std::string_view fresh) {
        return std::string_view(escaped_texts_.emplace_back(fresh));
      });
      escaped_values_.push_back(id);
    }
    return id;
  }

 private:
  google::protobuf::RepeatedPtrField<std::string>& strings_;
  NameTable ids_;  // id i is strings_[i]: both grow only here, together
  NameTable escaped_ids_;  // id i is escaped_texts_[i], whose value is escaped_values_[i]
  std::deque<std::string> escaped_texts_;  // a deque: the table borrows them, so they stay put
  std::vector<std::uint32_t> escaped_values_;
};

}  // namespace pt2lint::json_reader
