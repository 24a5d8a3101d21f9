// Node metadata interned while it is read (program.proto, Node.interned_metadata): each
// distinct key and value stored once, in the program's node_metadata_strings, and every node
// holding indices. At 4,096 layers 90k nodes carry 18 distinct stack traces; as key/value
// messages their copies were the largest part of the IR. Internal to src/io/readers/json_*.
#pragma once

#include <cstdint>
#include <string>
#include <string_view>

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

 private:
  google::protobuf::RepeatedPtrField<std::string>& strings_;
  NameTable ids_;  // id i is strings_[i]: both grow only here, together
};

}  // namespace pt2lint::json_reader
