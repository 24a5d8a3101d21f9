// The JSON reader's second thread (json_walker.h, read_beside): while this walk reads the
// top-level graph's nodes, the thread that converted the weights config reads the graph's
// tensor_values, the next field, with a cursor of its own over the same structural index.
// At 4,096 layers the nodes are ~70% of the program JSON and tensor_values ~27%
// (docs/performance.md): the second core had little to do while the first read both.
//
// The result is the walk on one thread, exactly:
// - the other thread finds the graph's `"tensor_values": {` from the end of the document,
//   token by token through the few fields after it (the nodes, ten times larger, are
//   never counted through), and reads it from there as this walk would: its walker starts
//   with this one's JSON path and depth, so its findings read the same; they are held and
//   adopted when this walk reaches tensor_values, in document order, and this walk goes on
//   from where the other one's cursor stopped, at the same depth, as if it had read the
//   value itself. A structural error there ends this walk there too;
// - the input is shared: while the other thread looks for tensor_values, this walk gives
//   back nothing past the nodes' start (json_input_release.h, InputHold), then nothing past
//   tensor_values, and each walk gives back only what lies behind itself;
// - this walk must reach tensor_values exactly where the other one started. In a malformed
//   document it may not (simdjson, reading one, may end a value elsewhere than its closing
//   bracket), and it may then have read input the other gave back: then this walk says so
//   (finish_beside), and the caller reads the document again on one thread. Only such a
//   document pays for two readings; a well-formed one never does.
#include <atomic>
#include <future>
#include <limits>
#include <optional>

#include "io/readers/json/json_document.h"
#include "io/readers/json/json_walker.h"
#include "io/readers/json/simdjson_internals.h"
#include "support/hand_off.h"

namespace pt2lint::json_reader {
namespace {

constexpr std::size_t kHoldNothing = std::numeric_limits<std::size_t>::max();
constexpr std::string_view kSiblingKey = "\"tensor_values\"";

}  // namespace

struct Walker::SideRead {
  enum State : int { kPosted, kRunning, kCancelled };

  pb::Message* graph = nullptr;           // whose tensor_values the other thread reads
  const FieldEntry* field = nullptr;      // Graph.tensor_values
  od::document cursor;                    // copied at the nodes, moved to tensor_values
  const std::uint32_t* nodes_at = nullptr;  // the nodes' '['
  std::vector<Step> steps;                // the JSON path down to the graph
  std::uint32_t depth = 0;                // the walk's depth_ in the graph object
  std::optional<InputRelease> release;    // the other walk's, from tensor_values on
  InputHold hold;                         // what this walk may not give back meanwhile
  std::atomic<int> state{kPosted};
  std::promise<void> done;
  std::future<void> finished = done.get_future();
  // What the other thread read, once `finished` is ready.
  LoadReporter reporter;                  // held until adopted
  ir::Graph* entries = nullptr;           // its tensor_values, on the graph's arena
  std::unique_ptr<ir::Graph> owned;       // `entries` of a graph on no arena
  const std::uint32_t* value_at = nullptr;  // the tensor_values '{'; null: not found
  std::size_t value_offset = 0;             // its offset in the input
  const std::uint32_t* ended_at = nullptr;  // where the other walk stopped
  std::size_t ended_offset = 0;             // and its offset (the input's size at its end)
  bool fatal = false;
  bool taken = false;  // by this walk, at tensor_values
};

namespace {

// Cancels the other thread's task if it has not started (it never will), else waits until it
// is done: it reads the walk's input and parser. Whether it ran.
template <typename Side>
bool stop_or_wait(Side& side) {
  int state = Side::kPosted;
  if (side.state.compare_exchange_strong(state, Side::kCancelled)) return false;
  if (state != Side::kRunning) return false;
  if (side.finished.valid()) side.finished.wait();
  return true;
}

}  // namespace

Walker::~Walker() {
  if (side_ == nullptr) return;
  stop_or_wait(*side_);
  release_->hold_from(nullptr);
}

void Walker::start_beside(pb::Message& graph, const MessageTable& t, std::uint64_t seen) {
  const std::uint32_t* nodes_at = next_token(doc_);
  const FieldEntry* field = t.find("tensor_values");
  // A tensor_values read before the nodes makes the one after them a repeated key, skipped.
  if (field == nullptr || field->index >= 64 || (seen >> field->index & 1) != 0 ||
      nodes_at == nullptr || stage1_of(parser_) == nullptr ||
      json_.data()[bom_length(json_) + *nodes_at] != '[') {
    beside_ = nullptr;
    return;
  }
  auto side = std::make_shared<SideRead>();
  side->graph = &graph;
  side->field = field;
  copy_cursor(side->cursor, doc_);
  side->nodes_at = nodes_at;
  side->steps.assign(steps_.begin(), steps_.end() - 1);  // without the "nodes" step
  side->depth = depth_;
  side->release.emplace(*release_);
  side->hold.offset.store(*nodes_at, std::memory_order_release);
  side->hold.token.store(nodes_at, std::memory_order_release);
  if (google::protobuf::Arena* arena = graph.GetArena()) {
    side->entries = google::protobuf::Arena::CreateMessage<ir::Graph>(arena);
  } else {
    side->owned = std::make_unique<ir::Graph>();
    side->entries = side->owned.get();
  }
  release_->hold_from(&side->hold);
  side_ = side;
  beside_->post([this, side] {
    int posted = SideRead::kPosted;
    if (!side->state.compare_exchange_strong(posted, SideRead::kRunning)) return;
    try {
      read_side(*side);
      side->done.set_value();
    } catch (...) {
      side->done.set_exception(std::current_exception());
    }
  });
}

void Walker::read_side(SideRead& side) const {
  const simdjson::internal::dom_parser_implementation* stage1 = stage1_of(parser_);
  const std::uint32_t* index_end = stage1->structural_indexes.get() + stage1->n_structural_indexes;
  const char* text = json_.data() + bom_length(json_);
  const auto at = [&](const std::uint32_t* token) { return text + *token; };
  // The last `"tensor_values" : {` of the document, the key plain; what follows the graph's
  // tensor_values (a few small graph fields, the signature, the module call graph) holds none.
  const std::uint32_t* value_at = nullptr;
  for (const std::uint32_t* key = index_end - 3; key > side.nodes_at; --key) {
    if (*at(key) == '"' && *at(key + 1) == ':' && *at(key + 2) == '{' &&
        std::string_view(at(key), kSiblingKey.size()) == kSiblingKey) {
      value_at = key + 2;
      break;
    }
  }
  if (value_at == nullptr) {
    side.hold.offset.store(kHoldNothing, std::memory_order_release);
    side.hold.token.store(nullptr, std::memory_order_release);
    return;
  }
  // From here on this walk must take it: the other gives input back.
  side.value_at = value_at;
  side.value_offset = *value_at;
  side.hold.offset.store(side.value_offset, std::memory_order_release);
  side.hold.token.store(value_at, std::memory_order_release);

  move_cursor_to_sibling(side.cursor, parser_, value_at, side.value_offset);
  side.release->start_at(value_at, side.value_offset);
  Walker walker(side.cursor, parser_, json_, options_, source_, side.reporter, &*side.release,
                nullptr);
  walker.share_tensor_metas_ = share_tensor_metas_;
  walker.steps_ = side.steps;
  walker.depth_ = side.depth;
  walker.have_document_ = true;
  {
    PathScope scope(walker.steps_, {Step::kField, side.field->name});
    walker.read_field_out_of_line(value_at_cursor(side.cursor), *side.entries, *side.field);
  }
  side.ended_at = next_token(side.cursor);
  side.ended_offset = side.ended_at < index_end ? *side.ended_at : json_.size() - bom_length(json_);
  side.fatal = walker.fatal_;
}

bool Walker::take_beside(pb::Message& graph, const FieldEntry& f) {
  SideRead& side = *side_;
  if (&graph != side.graph || &f != side.field) return false;
  beside_ = nullptr;  // one read is handed over, and this is where it is taken
  int posted = SideRead::kPosted;
  if (side.state.compare_exchange_strong(posted, SideRead::kCancelled)) {
    release_->hold_from(nullptr);  // the other thread never started: read here
    return false;
  }
  side.finished.get();  // rethrows what the other thread threw
  release_->hold_from(nullptr);
  if (side.value_at == nullptr) return false;  // no `"tensor_values": {` after the nodes
  side.taken = true;
  if (next_token(doc_) != side.value_at) {  // see the top of the file
    read_again_ = true;
    fatal_ = true;
    return true;
  }
  // Where the other walk stopped, as this one would have: past the value, or at the error
  // that ended the document.
  copy_cursor(doc_, side.cursor);
  release_->jumped(side.value_at, side.value_offset, side.ended_at, side.ended_offset);
  static_cast<ir::Graph&>(graph).mutable_tensor_values()->Swap(
      side.entries->mutable_tensor_values());
  reporter_.adopt(side.reporter);
  if (side.fatal) fatal_ = true;
  return true;
}

bool Walker::finish_beside() {
  if (side_ == nullptr) return read_again_;
  const bool ran = stop_or_wait(*side_);
  release_->hold_from(nullptr);
  // The other thread read tensor_values and gave back input behind it, and this walk did not
  // take it where it starts: this walk may have read that input.
  if (ran && side_->value_at != nullptr && !side_->taken) read_again_ = true;
  return read_again_;
}

}  // namespace pt2lint::json_reader
