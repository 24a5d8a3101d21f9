// IR -> the JSON PyTorch 2.11 writes: the reverse of src/io/readers/json_to_proto, driven by the
// same descriptor conventions (see src/core/ir/program.proto), so one writer covers the
// exported program and the weights/constants payload configs alike.
#pragma once

#include <string>

#include <google/protobuf/message.h>

namespace pt2lint {

// Every struct field is written, in declaration order, with `null` for an unset optional;
// unions are single-key objects, name-keyed lists are objects, `items` wrappers are bare
// lists, enums are integers, floats are spelled as Python spells them. Separators are
// json.dumps's defaults (", " and ": "), so the output matches torch.export.save's.
std::string to_pytorch_json(const google::protobuf::Message& message);

}  // namespace pt2lint
