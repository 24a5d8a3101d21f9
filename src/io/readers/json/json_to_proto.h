// A reader from JSON text to any IR message, driven by the message's descriptor and the
// conventions in src/core/ir/program.proto, so every schema version and writer quirk is
// handled in one place instead of per message. Reading never stops at a bad value: each
// problem becomes one malformed-program finding with its JSON path and the rest is read.
#pragma once

#include <cstdint>
#include <memory>
#include <string>
#include <string_view>

#include <google/protobuf/message.h>
#include <google/protobuf/repeated_ptr_field.h>

#include "io/readers/load_reporter.h"
#include "io/readers/json/json_input_release.h"
#include "io/readers/padded_bytes.h"

namespace pt2lint {

class HandOff;

// A second thread for JsonToProto::read: a thread that serves `hand_off` reads part of the
// document meanwhile (the top-level graph's tensor_values, json_walker_beside.cc).
struct ReadBeside {
  HandOff* hand_off = nullptr;
  // Set by read() when the document is malformed in a way the two threads saw differently:
  // then read() returned false, what it read and reported must be dropped, and the caller
  // reads the document again (its input was given back) without a second thread.
  bool read_again = false;
  // What the other thread read, as read() put it together: the elements of the nodes,
  // whether tensor_values, and whether the graph module's signature and module call graph
  // (docs/performance.md, tests).
  std::size_t nodes_read_beside = 0;
  bool tensor_values_read_beside = false;
  bool module_tail_read_beside = false;
};

struct JsonReadOptions {
  std::uint32_t max_depth = 1024;
  // A single string beyond this is reported instead of copied into the IR.
  std::uint64_t max_string_bytes = std::uint64_t{64} << 20;
  // Write IR fields through their generated setters (src/io/readers/json/ir_field_setters.h) instead
  // of reflection. Same result, about a third faster; false only for tests comparing both.
  bool use_field_setters = true;
  // A read given a second thread (JsonToProto::read's `beside`) hands it the top-level
  // graph's tensor_values from this size of document on; below it a thread saves nothing.
  std::uint64_t beside_min_bytes = std::uint64_t{2} << 20;
};

// Where a document came from, for the findings it produces.
struct JsonSource {
  std::string_view program;  // program name the findings are filed under
  std::string_view member;   // archive member or file name
};

class JsonToProto {
 public:
  explicit JsonToProto(JsonReadOptions options = {});
  ~JsonToProto();
  JsonToProto(const JsonToProto&) = delete;
  JsonToProto& operator=(const JsonToProto&) = delete;

  // Fills `message` from `json`. Returns false when the document was structurally unreadable
  // (truncated, too deep, not JSON): one finding says where, and `message` keeps what was
  // read before that point. Value-level problems are reported but still return true.
  // With `discard.bytes` (== &json), the pages of `json` the walk has passed are given back
  // as it goes (json_input_release.h): the caller must not read `json` afterwards. The
  // parser's own index is given back that way in every case.
  // With `interned_strings`, node metadata is interned into it (Node.interned_metadata, see
  // src/core/ir/node_metadata.h) instead of read into Node.metadata, and, for a `message` on
  // an arena, TensorMeta fields whose JSON text repeats one read before point at that one
  // message (tensor_meta_repeats.h). Both are for an IR that is only read.
  // With `beside`, another thread reads part of the document meanwhile: the same IR and
  // findings, unless beside->read_again says to read the document again.
  bool read(const PaddedBytes& json, google::protobuf::Message& message, const JsonSource& source,
            LoadReporter& reporter, InputDiscard discard = {},
            google::protobuf::RepeatedPtrField<std::string>* interned_strings = nullptr,
            ReadBeside* beside = nullptr);

  // Cheap check used for files found by walking a folder: whether the document is an object
  // with one of `keys` at its top level. Values are skipped, not converted.
  bool has_top_level_key(const PaddedBytes& json,
                         std::initializer_list<std::string_view> keys);

 private:
  struct Impl;
  std::unique_ptr<Impl> impl_;
};

}  // namespace pt2lint
