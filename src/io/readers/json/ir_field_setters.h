// Typed setters for the IR fields that make up almost all of a program's JSON: nodes, their
// arguments, tensor metadata, specs, weights-config entries. The JSON reader calls them
// instead of protobuf reflection, which costs a field-offset lookup, a has-bit update and a
// oneof check on every call; everything else about reading (paths, errors, shapes) stays in
// the one descriptor-driven reader. A field without setters is written through reflection.
#pragma once

#include <cstdint>
#include <string_view>

#include <google/protobuf/descriptor.h>
#include <google/protobuf/message.h>

namespace pt2lint {

// For a singular field the setter sets (and a message setter returns mutable_<field>()); for
// a repeated field it appends (add_<field>()). Only the slot of the field's C++ type is set.
struct FieldSetters {
  google::protobuf::Message* (*message)(google::protobuf::Message&) = nullptr;
  void (*string)(google::protobuf::Message&, std::string_view) = nullptr;
  void (*int64)(google::protobuf::Message&, std::int64_t) = nullptr;
  void (*int32)(google::protobuf::Message&, std::int32_t) = nullptr;
  void (*boolean)(google::protobuf::Message&, bool) = nullptr;
  void (*real)(google::protobuf::Message&, double) = nullptr;

  bool any() const {
    return message != nullptr || string != nullptr || int64 != nullptr || int32 != nullptr ||
           boolean != nullptr || real != nullptr;
  }
};

// The setters of `field` (of a message in src/core/ir/program.proto), or none.
FieldSetters ir_field_setters(const google::protobuf::FieldDescriptor* field);

// How many IR fields have setters: for the test that checks each one against reflection.
int ir_field_setter_count();

}  // namespace pt2lint
