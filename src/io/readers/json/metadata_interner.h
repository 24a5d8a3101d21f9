// Node metadata interned while it is read (program.proto, Node.interned_metadata): each
// distinct key and value stored once, in the program's node_metadata_strings, and every node
// holding indices. At 4,096 layers 90k nodes carry 20 distinct stack traces; as key/value
// messages their copies were the largest part of the IR. Internal to src/io/readers/json_*.
#pragma once

#include <cstddef>
#include <cstdint>
#include <string>
#include <string_view>
#include <vector>

#include <google/protobuf/repeated_ptr_field.h>

namespace pt2lint::json_reader {

class MetadataInterner {
 public:
  explicit MetadataInterner(google::protobuf::RepeatedPtrField<std::string>& strings)
      : strings_(strings) {}

  // The index of `s` in the strings, added when it is new.
  std::uint32_t intern(std::string_view s);

 private:
  struct Slot {
    std::size_t hash = 0;
    std::uint32_t id_plus_one = 0;  // 0: empty
  };
  void grow();

  google::protobuf::RepeatedPtrField<std::string>& strings_;
  std::vector<Slot> slots_;  // open addressing, a power of two, at most half full
  std::size_t size_ = 0;
};

}  // namespace pt2lint::json_reader
