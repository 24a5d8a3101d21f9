// The JSON reader's walk over one document (json_to_proto.h), split by what it reads:
// json_walker.cc the generic reader of any message and its error reporting,
// json_walker_scalars.cc the scalar fields, and the fast paths of the messages that make up
// most of a program: json_walker_tensor_meta.cc for ir::TensorMeta,
// json_walker_arguments.cc for node arguments. Internal to src/io/readers/json_*.
#pragma once

#include <cstddef>
#include <cstdint>
#include <limits>
#include <memory>
#include <string>
#include <string_view>
#include <utility>
#include <vector>

#include <simdjson.h>

#include "io/readers/json/json_bytes.h"
#include "io/readers/json/json_input_release.h"
#include "io/readers/json/json_schema_tables.h"
#include "io/readers/json/json_to_proto.h"
#include "io/readers/json/metadata_interner.h"
#include "io/readers/json/tensor_meta_repeats.h"
#include "io/readers/load_reporter.h"
#include "io/readers/padded_bytes.h"
#include "program.pb.h"

namespace pt2lint {
class HandOff;
}

namespace pt2lint::json_reader {

namespace od = simdjson::ondemand;

// Shows untrusted text in a message: bounded, with control bytes escaped.
std::string shown(std::string_view s, std::size_t limit = 60);

// Whether `e` concerns one value (reported, and the value skipped) rather than the
// document's structure (reading stops).
inline bool is_value_error(simdjson::error_code e) {
  switch (e) {
    case simdjson::INCORRECT_TYPE:
    case simdjson::NUMBER_ERROR:
    case simdjson::NUMBER_OUT_OF_RANGE:
    case simdjson::STRING_ERROR:
    case simdjson::NO_SUCH_FIELD: return true;
    default: return false;
  }
}

// One pass over one document.
class Walker {
 public:
  Walker(od::document& doc, const od::parser& parser, const PaddedBytes& json,
         const JsonReadOptions& options, const JsonSource& source, LoadReporter& reporter,
         InputRelease* release, MetadataInterner* interner)
      : doc_(doc), parser_(parser), json_(json), options_(options), source_(source),
        reporter_(reporter), release_(release), interner_(interner),
        share_tensor_metas_(interner != nullptr) {
    steps_.reserve(64);
  }
  // Waits for the read handed to another thread (read_beside), which uses this walk's input.
  ~Walker();
  Walker(const Walker&) = delete;
  Walker& operator=(const Walker&) = delete;

  // The top-level graph's tensor_values, the last part of its nodes and the graph module's
  // signature and module call graph are read on `beside`'s thread while this walk reads the
  // graph's nodes, when the document is at least `options.beside_min_bytes`
  // (json_walker_beside.cc). Findings and the IR are the same as a walk on one thread.
  void read_beside(HandOff* beside) { beside_ = json_.size() >= options_.beside_min_bytes ? beside : nullptr; }
  // At the end of the walk: waits for the other thread, and says whether what the two read
  // cannot be put together as one thread's reading. Then the walk stopped, what it read and
  // reported is not the document's, and the input must be read again without a second
  // thread (JsonToProto::read, ReadBeside::read_again).
  bool finish_beside();
  // What the other thread read and this walk took: nodes, whether tensor_values, and
  // whether the graph module's signature and module call graph.
  std::size_t nodes_read_beside() const { return nodes_read_beside_; }
  bool tensor_values_read_beside() const { return tensor_values_read_beside_; }
  bool module_tail_read_beside() const { return module_tail_read_beside_; }

  bool fatal() const { return fatal_; }
  // Until iterate() succeeds the document has no position to ask for.
  void document_started() { have_document_ = true; }
  void read_root(od::object& object, pb::Message& m, const MessageTable& t) {
    read_struct_fields(object, m, t);
  }
  void structural(simdjson::error_code e);

 private:
  // One step of the JSON path. The path is kept as steps and only rendered into text when
  // something is reported: most documents report nothing.
  struct Step {
    enum Kind : std::uint8_t { kField, kIndex, kKey } kind;
    std::string_view name;  // field name or object key; points into the input or the schema
    std::size_t index = 0;
  };

  // Pops the step a nested read pushed when that read returns.
  class PathScope {
   public:
    PathScope(std::vector<Step>& steps, Step step) : steps_(steps) { steps_.push_back(step); }
    ~PathScope() { steps_.pop_back(); }
    PathScope(const PathScope&) = delete;
    PathScope& operator=(const PathScope&) = delete;

   private:
    std::vector<Step>& steps_;
  };

  // Counts container nesting; the recursion below is bounded by it.
  class DepthScope {
   public:
    explicit DepthScope(Walker& w) : w_(w) { ++w_.depth_; }
    ~DepthScope() { --w_.depth_; }
    DepthScope(const DepthScope&) = delete;
    DepthScope& operator=(const DepthScope&) = delete;
    bool ok() {
      if (w_.depth_ <= w_.options_.max_depth) return true;
      w_.structural(simdjson::DEPTH_ERROR);
      return false;
    }

   private:
    Walker& w_;
  };

  // The next field of an object; false, after reporting, when the document is unreadable.
  template <typename FieldResult>
  bool next_field(FieldResult&& result, od::field& field) {
    if (auto e = std::forward<FieldResult>(result).get(field)) {
      structural(e);
      return false;
    }
    return true;
  }

  // The generic readers' walk over an object: visit(key, field) for each field whose key
  // reads (a bad key is reported and its field skipped), while visit returns true. False when
  // the walk stopped: the document is unreadable, or visit said so.
  template <typename Visit>
  bool for_each_key(od::object& object, Visit&& visit) {
    for (auto result : object) {
      od::field field;
      if (!next_field(std::move(result), field)) return false;
      std::string_view key;
      if (!key_of(field, key)) {
        if (fatal_) return false;
        continue;
      }
      if (!visit(key, field)) return false;
    }
    return true;
  }

  // Returns true when `e` was a value-level error that the caller should report and skip.
  bool check(simdjson::error_code e) {
    if (e == simdjson::SUCCESS) return false;
    if (!is_value_error(e)) structural(e);
    return true;
  }

  // The text of a string value that needs no unescaping, read straight from the input (as
  // read_scalar does); false for anything else: another type, an escape, an over-long string.
  bool plain_string(od::value& v, std::string_view& out) const {
    const std::string_view token = trim(v.raw_json_token());
    od::raw_json_string raw;
    if (token.size() < 2 || token.size() > options_.max_string_bytes || token.front() != '"' ||
        token.back() != '"' || has_backslash(token) || v.get_raw_json_string().get(raw)) {
      return false;
    }
    out = token.substr(1, token.size() - 2);
    return true;
  }

  // The end of the input and its padding: scans for a closing quote stop here.
  const char* input_limit() const { return json_.data() + json_.capacity(); }

  // The key of `field` when it is plain (no escapes), which is nearly always: skips simdjson's
  // copy into its string buffer. Stage 1 has already checked the closing quote exists.
  bool plain_key(od::field& field, std::string_view& key) const {
    const char* begin = field.key().raw();
    const char* limit = input_limit();
    if (begin < json_.data() || begin >= limit) return false;
    const char* p = find_quote_or_backslash(begin, limit);
    if (p >= limit || *p != '"') return false;
    key = std::string_view(begin, static_cast<std::size_t>(p - begin));
    return true;
  }

  // ---- The generic reader (json_walker.cc): any message, driven by its MessageTable.

  std::string path() const;

  // The key of a field, unescaped where it has to be; false, after reporting, when it is not
  // a valid JSON string.
  bool key_of(od::field& field, std::string_view& key);

  void problem(std::string message);

  // Marks field `index` seen; true when it already was (a repeated JSON key).
  static bool already_seen(int index, std::uint64_t& seen, std::vector<bool>& beyond_64);
  // Reports a key repeated in one object at the current path.
  void duplicate_key(std::string_view key, std::string_view where);

  std::string describe(od::value& v);

  void mismatch(od::value& v, std::string_view expected);

  void read_message(od::value v, pb::Message& m, const MessageTable& t);

  void read_struct_fields(od::object& object, pb::Message& m, const MessageTable& t);

  // A union's single-key object, after read_message took it from its value.
  void read_union_fields(od::object& object, pb::Message& m, const MessageTable& t);

  void read_field(od::value v, pb::Message& m, const FieldEntry& f);
  // read_field and read_message out of line, for json_walker_beside.cc (they are inline).
  void read_field_out_of_line(od::value v, pb::Message& m, const FieldEntry& f);
  void read_message_out_of_line(od::value v, pb::Message& m, const MessageTable& t);

  void read_list(od::value v, pb::Message& m, const FieldEntry& f);

  void read_keyed(od::value v, pb::Message& m, const FieldEntry& f);

  // ---- The sibling read on another thread (json_walker_beside.cc).

  struct SideRead;
  // At the top-level graph's nodes, the fields `seen` read before them: hands the
  // tensor_values after them to the other thread.
  void start_beside(pb::Message& graph, const MessageTable& t, std::uint64_t seen);
  // At field `f` of `graph`, whose value the walk is at: true when the other thread read it
  // (its findings adopted, its entries moved into `graph`, the walk moved past it, or the
  // walk stopped for a reading again); false when this walk reads it.
  bool take_beside(pb::Message& graph, const FieldEntry& f);
  // In the top-level graph's nodes, at an element: true when the other thread read the
  // elements from here on (they are appended to `graph`, the walk moved to the list's end,
  // or it stopped for a reading again).
  bool take_nodes(pb::Message& graph);
  // Whether the list field `f` of `m` is the one take_nodes() watches.
  bool is_split_list(const pb::Message& m, const FieldEntry& f) const;
  // The other thread's part: finds the tensor_values after the nodes and the last elements
  // of the nodes worth its time, and reads them.
  void read_side(SideRead& side) const;
  void read_last_nodes(SideRead& side) const;
  void read_tensor_values(SideRead& side) const;
  // At field `f` of the top-level graph module: true when the other thread read it (the
  // signature or the module call graph, after the graph), as take_beside.
  bool take_tail(pb::Message& graph_module, const FieldEntry& f);
  // The other thread's last part: the graph module's signature and module call graph, when
  // they follow the graph, in that order, as torch.export writes them.
  void read_module_tail(SideRead& side) const;
  // Holds the input from the first value of the tail read but not taken on, or lifts the hold.
  void hold_at_next_tail();
  // Waits for the other thread's part to be done (once), rethrowing what it threw.
  void wait_for_side();

  // ---- Scalars (json_walker_scalars.cc): strings, integers of every width, doubles, bools.

  // Integers keep their exact JSON spelling in messages: "1e999" or a 70-bit literal say
  // more than a parser's error code.
  std::string integer_problem(od::value& v, std::string_view bits);

  // The value as a T; 0, after reporting, when it is not an integer that fits.
  template <typename T>
  T read_integer(od::value& v);

  static bool special_double(std::string_view s, double& out);

  // Numbers, plus the infinities and NaN PyTorch writes either as strings or, through
  // Python's json module, as bare non-standard tokens.
  bool read_double(od::value& v, double& out);

  // v.get_string() for a string value of `token_size` bytes (quotes included) that has
  // escapes, unescaped into the walker's own buffer instead of simdjson's string buffer.
  // simdjson's buffer is never reused within a document, so every escaped string read
  // through it (the stack traces: ~30 MB at 4,096 layers) stays resident until the parser
  // goes, at the reader's peak. The same simdjson routine unescapes, so the text and the
  // errors are get_string()'s. The view lasts until the next call.
  simdjson::simdjson_result<std::string_view> unescape_string(od::value& v,
                                                              std::size_t token_size);

  // A string value's text: a view into the input when it has no escape, else into the
  // walker's buffer (until the next unescape). False, after reporting, when it is not a
  // string or is too long.
  bool read_string(od::value& v, std::string_view& out);

  // A node metadata value, interned; `f` is StringEntry.value, whose reading it repeats for
  // anything but a string.
  std::uint32_t read_interned_value(od::value v, const FieldEntry& f);

  void read_scalar(od::value v, pb::Message& m, const FieldEntry& f, bool add);

  // ---- Fast path for ir::TensorMeta, about half of a program's values
  // (json_walker_tensor_meta.cc).
  //
  // It reads the well-formed case only: known keys once each, values of the expected JSON
  // type and range, SymInts as {"as_int": n}, dtype and sizes present. On anything else it
  // gives up: it clears the message, puts the object back at its first field and returns
  // false, and read_struct_fields reads the object again, reporting exactly what it always
  // did. Scalar reads never leave simdjson in an error state, so the re-read sees the same
  // document. An error of the document's structure is not retried (simdjson keeps it): the
  // fast path reports it itself, from the same position and under the same JSON path as
  // the generic reader, which iterates containers the same way.
  enum class Fast { kDone, kGiveUp, kFatal };

  // A failed read: a value the generic reader reports (give up and let it), or one that
  // ends the document, reported here as the generic reader does at the same point.
  Fast failed(simdjson::error_code e) {
    if (is_value_error(e)) return Fast::kGiveUp;
    structural(e);
    return Fast::kFatal;
  }

  Fast fast_int64(od::value& v, std::int64_t& out) {
    if (auto e = v.get_int64().get(out)) return failed(e);
    return Fast::kDone;
  }

  Fast fast_int32(od::value& v, std::int32_t& out) {
    std::int64_t x;
    if (auto e = v.get_int64().get(x)) return failed(e);
    if (x < std::numeric_limits<std::int32_t>::min() ||
        x > std::numeric_limits<std::int32_t>::max()) {
      return Fast::kGiveUp;
    }
    out = static_cast<std::int32_t>(x);
    return Fast::kDone;
  }

  // {"as_int": n}
  Fast fast_symint(od::value v, ir::SymInt& out);

  Fast fast_symint_list(od::value v, pb::RepeatedPtrField<ir::SymInt>& out);
  bool scan_symint_list(od::value& v, pb::RepeatedPtrField<ir::SymInt>& out);

  // {"type": "cpu", "index": null or n}
  Fast fast_device(od::value v, ir::Device& out);

  Fast fast_tensor_meta_fields(od::object& object, ir::TensorMeta& m);

  // True when the object was read (or a structural error reported); false when the generic
  // reader must read it, with `m` empty and the object back at its start. `start` is the
  // object's '{' in the input: a text read before is copied (tensor_meta_repeats.h).
  bool fast_tensor_meta(od::object& object, const char* start, ir::TensorMeta& m);

  // For an IR that is only read: points the singular TensorMeta field `f` of `parent` at the
  // message of a text read before, when the value `v` repeats one, instead of reading it.
  bool share_tensor_meta(od::value& v, pb::Message& parent, const FieldEntry& f);

  // Give up, with `m` cleared and `object` back at its first field, unless `r` says the
  // object was read or the document ended: the fast readers' common end.
  bool settle(Fast r, od::object& object, pb::Message& m);

  // ---- Fast path for node arguments, the other half of a program's bulk
  // (json_walker_arguments.cc), on the same terms as the TensorMeta one.

  // {"name": "x"}
  Fast fast_tensor_argument(od::value v, ir::TensorArgument& out);

  Fast fast_tensor_argument_list(od::value v, ir::TensorArgumentList& out);

  Fast fast_int_list(od::value v, ir::IntList& out);

  // The common kinds of an argument: a tensor, tensors, an int, ints, none, a float, a bool,
  // a string, a dtype, a layout or a memory format.
  Fast fast_argument_fields(od::object& object, ir::Argument& out);

  // {"name": "x", "arg": {...}, "kind": 1}
  Fast fast_named_argument_fields(od::object& object, ir::NamedArgument& out);

  bool fast_argument(od::object& object, ir::Argument& m) {
    return settle(fast_argument_fields(object, m), object, m);
  }
  bool fast_named_argument(od::object& object, ir::NamedArgument& m) {
    return settle(fast_named_argument_fields(object, m), object, m);
  }

  od::document& doc_;
  const od::parser& parser_;  // its unescape(), which writes where it is told, and its index
  const PaddedBytes& json_;
  const JsonReadOptions& options_;
  const JsonSource& source_;
  LoadReporter& reporter_;
  InputRelease* release_;  // told where the walk is, between elements of lists and maps
  MetadataInterner* interner_;  // null: node metadata read as key/value messages
  ir::StringEntry metadata_entry_;  // an interned value that is no string, read here; reused
  TensorMetaRepeats tensor_meta_repeats_;
  // The IR is only read (as with interner_): repeated TensorMetas share one message.
  bool share_tensor_metas_;
  std::vector<Step> steps_;
  std::vector<std::uint8_t> unescaped_;  // unescape_string()'s buffer, reused
  std::uint32_t depth_ = 0;
  bool fatal_ = false;
  bool have_document_ = false;
  HandOff* beside_ = nullptr;  // until the read it takes is handed over
  std::shared_ptr<SideRead> side_;  // shared with the task on the other thread
  // The top-level graph module, at its graph, and the fields it had before: read_module_tail.
  pb::Message* graph_module_ = nullptr;
  const MessageTable* graph_module_table_ = nullptr;
  std::uint64_t graph_module_seen_ = 0;
  bool read_again_ = false;  // finish_beside()
  std::size_t nodes_read_beside_ = 0;
  bool tensor_values_read_beside_ = false;
  bool module_tail_read_beside_ = false;
};

}  // namespace pt2lint::json_reader
