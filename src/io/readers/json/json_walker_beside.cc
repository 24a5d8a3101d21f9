// The JSON reader's second thread (json_walker.h, read_beside): while this walk reads the
// top-level graph's nodes, the thread that converted the weights config reads the graph's
// tensor_values, the next field, and the nodes' last elements, with cursors of its own over
// the same structural index. At 4,096 layers the nodes are ~70% of the program JSON and
// tensor_values ~27% (docs/performance.md): the second core had little to do while the
// first read both.
//
// The result is the walk on one thread, exactly:
// - the other thread finds the graph's `"tensor_values": {` from the end of the document,
//   token by token through the few fields after it (the nodes, ten times larger, are
//   never counted through), and reads it from there as this walk would: its walker starts
//   with this one's JSON path and depth, so its findings read the same; they are held and
//   adopted when this walk reaches tensor_values, in document order, and this walk goes on
//   from where the other one's cursor stopped, at the same depth, as if it had read the
//   value itself. A structural error there ends this walk there too;
// - it then counts brackets back from the nodes' ']' to an element boundary and offers to
//   read the elements from there on (as many as balance the two threads from where this
//   walk is when the other one gets there: split_for_balance). This
//   walk publishes each element it reaches, so the offer stands only when this walk is still
//   before that element, and is taken there: the other thread's nodes are appended, their
//   interned metadata renumbered in this walk's table in the order one walk would have
//   interned it, and this walk moves to the list's ']'. Any finding there, or an element
//   that does not end where the next one starts, is not put together: read again;
// - after tensor_values it reads the graph module's signature and module call graph, the
//   next fields after the graph (~7 % of the document at 4,096 layers), found by counting
//   brackets forward from where tensor_values ended and taken as tensor_values is, when
//   this walk reaches each; this walk then holds the input from the first it has not taken;
// - the input is shared: while the other thread looks for tensor_values, this walk gives
//   back nothing past the nodes' start (json_input_release.h, InputHold), then nothing past
//   tensor_values, and each walk gives back only what lies behind itself;
// - this walk must reach tensor_values exactly where the other one started. In a malformed
//   document it may not (simdjson, reading one, may end a value elsewhere than its closing
//   bracket), and it may then have read input the other gave back: then this walk says so
//   (finish_beside), and the caller reads the document again on one thread. Only such a
//   document pays for two readings; a well-formed one never does.
#include <algorithm>
#include <atomic>
#include <functional>
#include <future>
#include <limits>

#include "io/readers/json/json_document.h"
#include "io/readers/json/json_walker.h"
#include "io/readers/json/simdjson_internals.h"
#include "support/hand_off.h"

namespace pt2lint::json_reader {
namespace {

constexpr std::size_t kHoldNothing = std::numeric_limits<std::size_t>::max();
constexpr std::string_view kSiblingKey = "\"tensor_values\"";
// The byte offset from which the other thread offers to read the nodes: what leaves both the
// same number of bytes to read, from where this walk is (`walk_at`) when the other gets to
// the nodes, having converted the weights config and checked the CRC first, whose time
// varies with the model. It reads everything after the nodes as well (`after_nodes` bytes),
// at about the speed this walk reads nodes (measured at 1,024 and 4,096 layers). A fixed share
// could not do this: 15 % of the nodes left this walk waiting ~15 ms for it at 4,096 layers,
// whose weights config takes the other thread ~37 ms, and ~0.3 ms at 256 layers. None (the
// nodes' end) when this walk would finish first anyway.
double split_for_balance(double walk_at, double nodes_end, double after_nodes) {
  const double share = (nodes_end - walk_at - after_nodes) / 2;
  return share > 0 ? nodes_end - share : nodes_end;
}

// Cancels the other thread's task if it has not started (it never will), else waits until it
// is done: it reads the walk's input and parser. Whether it ran.
template <typename Side>
bool stop_or_wait(Side& side) {
  int state = Side::kPosted;
  if (side.state.compare_exchange_strong(state, Side::kCancelled)) return false;
  if (state != Side::kRunning) return false;
  if (!side.waited && side.finished.valid()) side.finished.wait();
  return true;
}

// The end of the parser's structural index.
const std::uint32_t* index_end(const od::parser& parser) {
  const simdjson::internal::dom_parser_implementation* stage1 = stage1_of(parser);
  return stage1->structural_indexes.get() + stage1->n_structural_indexes;
}

// Renumbers the interned metadata of `node` and of the nodes of its subgraphs: `ids[i]` is
// the id in this walk's table of the other thread's string i.
void renumber(ir::Node& node, const std::vector<std::uint32_t>& ids) {
  for (int i = 0; i < node.interned_metadata_size(); ++i) {
    node.set_interned_metadata(i, ids[node.interned_metadata(i)]);
  }
  for (ir::NamedArgument& input : *node.mutable_inputs()) {
    if (!input.arg().has_as_graph()) continue;
    for (ir::Node& inner : *input.mutable_arg()->mutable_as_graph()->mutable_graph()->mutable_nodes()) {
      renumber(inner, ids);
    }
  }
}

}  // namespace

struct Walker::SideRead {
  enum State : int { kPosted, kRunning, kCancelled };

  pb::Message* graph = nullptr;               // whose fields the other thread reads
  const FieldEntry* field = nullptr;          // Graph.tensor_values
  const FieldEntry* nodes_field = nullptr;    // Graph.nodes
  od::document cursor;                        // copied at the nodes, moved to tensor_values
  od::document nodes_cursor;                  // copied at the nodes, moved to their last part
  const std::uint32_t* nodes_at = nullptr;    // the nodes' '['
  std::vector<Step> steps;                    // the JSON path down to the graph
  std::uint32_t depth = 0;                    // the walk's depth_ in the graph object
  InputRelease release;                       // this walk's, as it was at the nodes
  InputHold hold;                             // what this walk may not give back meanwhile
  std::atomic<int> state{kPosted};
  std::promise<void> done;
  std::future<void> finished = done.get_future();
  bool waited = false;                        // `finished` was waited for, by this walk
  // The offer of the nodes' last part: the first element's token, taken by this walk
  // (kTaken) or withdrawn (null) by one compare-exchange; and the element this walk is at.
  std::atomic<const std::uint32_t*> split{nullptr};
  std::atomic<const std::uint32_t*> walk_at{nullptr};
  const std::uint32_t* taken_marker() const { return nodes_at; }  // never an element
  // What the other thread read, once `finished` is ready.
  LoadReporter reporter;                      // tensor_values' findings, held until adopted
  ir::Graph* entries = nullptr;               // its tensor_values and nodes, on the arena
  std::unique_ptr<ir::Graph> owned;           // `entries` of a graph on no arena
  const std::uint32_t* value_at = nullptr;    // the tensor_values '{'; null: not found
  std::size_t value_offset = 0;               // its offset in the input
  const std::uint32_t* ended_at = nullptr;    // where the other walk of it stopped
  std::size_t ended_offset = 0;               // and its offset (the input's size at its end)
  bool fatal = false;
  bool taken = false;                         // tensor_values, by this walk
  const std::uint32_t* split_at = nullptr;    // the offer, once the other thread reads it
  std::size_t split_offset = 0;
  const std::uint32_t* nodes_end = nullptr;   // the list's ']', when the part was read cleanly
  std::size_t nodes_end_offset = 0;
  pb::RepeatedPtrField<std::string> strings;  // the part's interned metadata
  std::vector<std::uint64_t> hashes;          // their NameTable::hash, by the other thread
  bool nodes_taken = false;                   // the part, by this walk
  HandOff* hand_off = nullptr;                // the other thread's
  // The part's renumbering, handed back to the other thread once the part is taken.
  std::promise<void> renumber;
  std::future<void> renumbered;

  // The graph module's signature and module call graph, read last (read_module_tail).
  struct TailValue {
    const FieldEntry* field = nullptr;
    od::document cursor;                      // copied at the nodes, moved to the value
    const std::uint32_t* value_at = nullptr;  // null: not read there
    std::size_t value_offset = 0;
    const std::uint32_t* ended_at = nullptr;
    std::size_t ended_offset = 0;
    LoadReporter reporter;
    bool fatal = false;
    bool taken = false;
  };
  pb::Message* graph_module = nullptr;        // the walk's, null: no tail is read
  std::uint64_t graph_module_seen = 0;        // its fields read before the graph
  ir::GraphModule* tail_entries = nullptr;    // what the other thread read, on the arena
  std::unique_ptr<ir::GraphModule> owned_tail;
  TailValue tail[2];                          // the signature, the module call graph

  explicit SideRead(const InputRelease& walk_release) : release(walk_release) {}
};

Walker::~Walker() {
  if (side_ == nullptr) return;
  stop_or_wait(*side_);
  if (side_->renumbered.valid()) side_->renumbered.wait();
  release_->hold_from(nullptr);
}

void Walker::start_beside(pb::Message& graph, const MessageTable& t, std::uint64_t seen) {
  const std::uint32_t* nodes_at = next_token(doc_);
  const FieldEntry* field = t.find("tensor_values");
  const FieldEntry* nodes_field = t.find("nodes");
  // A tensor_values read before the nodes makes the one after them a repeated key, skipped.
  if (field == nullptr || nodes_field == nullptr || field->index >= 64 ||
      (seen >> field->index & 1) != 0 || nodes_at == nullptr || stage1_of(parser_) == nullptr ||
      json_.data()[bom_length(json_) + *nodes_at] != '[') {
    beside_ = nullptr;
    return;
  }
  auto side = std::make_shared<SideRead>(*release_);
  side->graph = &graph;
  side->field = field;
  side->nodes_field = nodes_field;
  copy_cursor(side->cursor, doc_);
  copy_cursor(side->nodes_cursor, doc_);
  side->nodes_at = nodes_at;
  side->steps.assign(steps_.begin(), steps_.end() - 1);  // without the "nodes" step
  side->depth = depth_;
  side->hold.offset.store(*nodes_at, std::memory_order_release);
  side->hold.token.store(nodes_at, std::memory_order_release);
  if (google::protobuf::Arena* arena = graph.GetArena()) {
    side->entries = google::protobuf::Arena::CreateMessage<ir::Graph>(arena);
  } else {
    side->owned = std::make_unique<ir::Graph>();
    side->entries = side->owned.get();
  }
  const FieldEntry* signature = graph_module_table_ ? graph_module_table_->find("signature") : nullptr;
  const FieldEntry* calls = graph_module_table_ ? graph_module_table_->find("module_call_graph") : nullptr;
  if (graph_module_ != nullptr && signature != nullptr && calls != nullptr && signature->index < 64 &&
      calls->index < 64 && steps_.size() >= 2) {
    side->graph_module = graph_module_;
    side->graph_module_seen = graph_module_seen_;
    side->tail[0].field = signature;
    side->tail[1].field = calls;
    for (SideRead::TailValue& value : side->tail) copy_cursor(value.cursor, doc_);
    if (google::protobuf::Arena* arena = graph_module_->GetArena()) {
      side->tail_entries = google::protobuf::Arena::CreateMessage<ir::GraphModule>(arena);
    } else {
      side->owned_tail = std::make_unique<ir::GraphModule>();
      side->tail_entries = side->owned_tail.get();
    }
  }
  release_->hold_from(&side->hold);
  side->hand_off = beside_;
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
  const std::uint32_t* end = index_end(parser_);
  const char* text = json_.data() + bom_length(json_);
  const auto at = [&](const std::uint32_t* token) { return text + *token; };
  // The last `"tensor_values" : {` of the document, the key plain; what follows the graph's
  // tensor_values (a few small graph fields, the signature, the module call graph) holds none.
  const std::uint32_t* value_at = nullptr;
  for (const std::uint32_t* key = end - 3; key > side.nodes_at; --key) {
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
  side.value_at = value_at;  // from here on this walk must take it: the other gives input back
  side.value_offset = *value_at;

  // `], "tensor_values"`: the nodes end just before. Back from their ']' to the ',' between
  // two elements at the share's offset, counting brackets.
  const std::uint32_t* nodes_end = value_at - 4;
  const std::uint32_t* split = nullptr;
  if (nodes_end > side.nodes_at && *at(nodes_end) == ']' && *at(value_at - 3) == ',') {
    // Where this walk is, in bytes, from its token's place among the nodes' tokens: the
    // token's own entry may lie in index pages it has given back already.
    const std::uint32_t* published = side.walk_at.load(std::memory_order_seq_cst);
    const std::uint32_t* walk =
        published == nullptr ? side.nodes_at : std::clamp(published, side.nodes_at, nodes_end, std::less<>());
    const auto nodes_offset = static_cast<double>(*side.nodes_at);
    const auto nodes_bytes = static_cast<double>(*nodes_end) - nodes_offset;
    const double walk_at = nodes_offset + nodes_bytes * static_cast<double>(walk - side.nodes_at) /
                                              static_cast<double>(nodes_end - side.nodes_at);
    const auto share_from = static_cast<std::size_t>(split_for_balance(
        walk_at, *nodes_end, static_cast<double>(json_.size() - bom_length(json_) - side.value_offset)));
    std::size_t depth = 0;
    for (const std::uint32_t* p = nodes_end - 1; p > side.nodes_at; --p) {
      const char c = *at(p);
      if (c == ']' || c == '}') {
        ++depth;
      } else if (c == '[' || c == '{') {
        if (depth == 0) break;  // an unbalanced document: no offer
        --depth;
      } else if (c == ',' && depth == 0 && *p <= share_from) {
        split = p + 1;
        break;
      }
    }
  }
  // The offer stands if this walk has not reached it yet (it publishes each element it is
  // at before it looks at the offer, and the offer is published before the walk is looked
  // at, so one of the two sees the other); else it is withdrawn, unless already taken.
  bool offered = false;
  if (split != nullptr) {
    side.split.store(split, std::memory_order_seq_cst);
    const std::uint32_t* walk = side.walk_at.load(std::memory_order_seq_cst);
    const std::uint32_t* expected = split;
    offered = std::less<>()(walk, split) || !side.split.compare_exchange_strong(expected, nullptr);
  }
  if (offered) {
    side.split_at = split;
    side.split_offset = *split;
    side.hold.offset.store(side.split_offset, std::memory_order_release);
    side.hold.token.store(split, std::memory_order_release);
    read_last_nodes(side);
  } else {
    side.hold.offset.store(side.value_offset, std::memory_order_release);
    side.hold.token.store(value_at, std::memory_order_release);
  }
  read_tensor_values(side);
  if (side.graph_module != nullptr && !side.fatal) read_module_tail(side);
}

void Walker::read_last_nodes(SideRead& side) const {
  // The list's elements are one level below the list, which is where the cursor was copied.
  od::json_iterator& it = iterator_of(side.nodes_cursor);
  const od::depth_t list_depth = it.depth();
  move_cursor_into(side.nodes_cursor, parser_, side.split_at, side.split_offset);
  InputRelease release = side.release;
  release.start_at(side.split_at, side.split_offset);
  LoadReporter reporter;
  MetadataInterner interner(side.strings);
  Walker walker(side.nodes_cursor, parser_, json_, options_, source_, reporter, &release,
                interner_ != nullptr ? &interner : nullptr);
  walker.share_tensor_metas_ = share_tensor_metas_;
  walker.steps_ = side.steps;
  walker.depth_ = side.depth + 1;  // inside the list, as read_list's DepthScope leaves it
  walker.have_document_ = true;
  PathScope field(walker.steps_, {Step::kField, side.nodes_field->name});
  const MessageTable& node_table = *side.nodes_field->sub;
  auto& nodes = *side.entries->mutable_nodes();
  for (;;) {
    release.passed(reinterpret_cast<const char*>(it.peek()));
    {
      PathScope element(walker.steps_, {Step::kIndex, {}, 0});  // unused: no finding is kept
      walker.read_message_out_of_line(value_at_cursor(side.nodes_cursor), *nodes.Add(), node_table);
    }
    if (walker.fatal_ || reporter.reported() != 0 || it.depth() != list_depth) return;
    const std::uint8_t c = *it.peek();
    if (c == ']') break;
    if (c != ',') return;
    it.return_current_and_advance();
    it.descend_to(list_depth + 1);
  }
  side.nodes_end = it.position();
  side.nodes_end_offset = *side.nodes_end;
  // This walk interns them into its table when it takes the part, waited for.
  side.hashes.reserve(static_cast<std::size_t>(side.strings.size()));
  for (const std::string& s : side.strings) side.hashes.push_back(NameTable::hash(s));
}

void Walker::read_tensor_values(SideRead& side) const {
  const std::uint32_t* end = index_end(parser_);
  move_cursor_to_sibling(side.cursor, parser_, side.value_at, side.value_offset);
  InputRelease release = side.release;
  release.start_at(side.value_at, side.value_offset);
  Walker walker(side.cursor, parser_, json_, options_, source_, side.reporter, &release, nullptr);
  walker.share_tensor_metas_ = share_tensor_metas_;
  walker.steps_ = side.steps;
  walker.depth_ = side.depth;
  walker.have_document_ = true;
  {
    PathScope scope(walker.steps_, {Step::kField, side.field->name});
    walker.read_field_out_of_line(value_at_cursor(side.cursor), *side.entries, *side.field);
  }
  side.ended_at = next_token(side.cursor);
  side.ended_offset = side.ended_at < end ? *side.ended_at : json_.size() - bom_length(json_);
  side.fatal = walker.fatal_;
}

void Walker::read_module_tail(SideRead& side) const {
  const std::uint32_t* end = index_end(parser_);
  if (side.ended_at == nullptr || side.ended_at >= end) return;
  const char* text = json_.data() + bom_length(json_);
  const auto at = [&](const std::uint32_t* token) { return text + *token; };
  const auto is_key = [&](const std::uint32_t* token, std::string_view quoted) {
    return *at(token) == '"' && std::string_view(at(token), quoted.size()) == quoted;
  };
  const std::uint64_t seen = side.graph_module_seen;
  if ((seen >> side.tail[0].field->index & 1) != 0 || (seen >> side.tail[1].field->index & 1) != 0) {
    return;  // a repeated key after the graph: skipped by this walk, so not read here
  }
  // From where tensor_values ended, forward: the graph's last fields up to the '}' that
  // closes it, then `, "signature": {`, the signature up to its '}', and `, "module_call_graph":
  // [` (the keys plain), exactly: then both are the graph module's fields.
  const auto after_close = [&](const std::uint32_t* p) -> const std::uint32_t* {
    std::size_t depth = 0;
    for (; p < end; ++p) {
      const char c = *at(p);
      if (c == '{' || c == '[') {
        ++depth;
      } else if (c == '}' || c == ']') {
        if (depth == 0) return p + 1;
        --depth;
      }
    }
    return nullptr;
  };
  const auto field_value = [&](const std::uint32_t* p, std::string_view quoted, char open) -> const std::uint32_t* {
    if (p == nullptr || end - p < 4 || *at(p) != ',' || !is_key(p + 1, quoted) || *at(p + 2) != ':' ||
        *at(p + 3) != open) {
      return nullptr;
    }
    return p + 3;
  };
  const std::uint32_t* signature_at = field_value(after_close(side.ended_at), "\"signature\"", '{');
  if (signature_at == nullptr) return;
  const std::uint32_t* calls_at = field_value(after_close(signature_at + 1), "\"module_call_graph\"", '[');
  if (calls_at == nullptr) return;
  const std::uint32_t* values[2] = {signature_at, calls_at};
  for (int i = 0; i < 2; ++i) {
    SideRead::TailValue& tail = side.tail[i];
    tail.value_at = values[i];
    tail.value_offset = *values[i];
    // One level up from the nodes: a field of the graph module, as the graph is.
    move_cursor_to_sibling(tail.cursor, parser_, tail.value_at, tail.value_offset, 1);
    InputRelease release = side.release;
    release.start_at(tail.value_at, tail.value_offset);
    Walker walker(tail.cursor, parser_, json_, options_, source_, tail.reporter, &release, nullptr);
    walker.share_tensor_metas_ = share_tensor_metas_;
    walker.steps_.assign(side.steps.begin(), side.steps.end() - 1);  // without the graph's step
    walker.depth_ = side.depth - 1;
    walker.have_document_ = true;
    {
      PathScope scope(walker.steps_, {Step::kField, tail.field->name});
      walker.read_field_out_of_line(value_at_cursor(tail.cursor), *side.tail_entries, *tail.field);
    }
    tail.ended_at = next_token(tail.cursor);
    tail.ended_offset = tail.ended_at < end ? *tail.ended_at : json_.size() - bom_length(json_);
    tail.fatal = walker.fatal_;
    if (tail.fatal) return;  // this walk stops there too: the rest is never read
  }
}

void Walker::wait_for_side() {
  SideRead& side = *side_;
  if (side.waited) return;
  side.waited = true;
  side.finished.get();  // rethrows what the other thread threw
}

bool Walker::is_split_list(const pb::Message& m, const FieldEntry& f) const {
  return &m == side_->graph && &f == side_->nodes_field;
}

bool Walker::take_nodes(pb::Message& graph) {
  SideRead& side = *side_;
  const std::uint32_t* here = next_token(doc_);
  side.walk_at.store(here, std::memory_order_seq_cst);
  if (side.split.load(std::memory_order_seq_cst) != here) return false;
  const std::uint32_t* expected = here;
  if (!side.split.compare_exchange_strong(expected, side.taken_marker())) return false;  // withdrawn
  side.nodes_taken = true;
  wait_for_side();
  // Until this walk takes tensor_values, nothing from there on is given back: the other walk
  // gave back input in it, whose index entries now read as zeros.
  side.hold.offset.store(side.value_offset, std::memory_order_release);
  side.hold.token.store(side.value_at, std::memory_order_release);
  if (side.nodes_end == nullptr) {  // see the top of the file
    read_again_ = true;
    fatal_ = true;
    return true;
  }
  // The other thread's strings after this walk's, in the order it met them: as one walk.
  std::vector<std::uint32_t> ids;
  ids.reserve(static_cast<std::size_t>(side.strings.size()));
  if (interner_ != nullptr) {
    interner_->reserve_more(side.hashes.size());
    for (int i = 0; i < side.strings.size(); ++i) {
      std::string& s = *side.strings.Mutable(i);
      const auto at = static_cast<std::size_t>(i);
      ids.push_back(at < side.hashes.size() ? interner_->intern_moved(s, side.hashes[at]) : interner_->intern(s));
    }
  }
  auto& nodes = *static_cast<ir::Graph&>(graph).mutable_nodes();
  auto& part = *side.entries->mutable_nodes();
  const int count = part.size();
  std::vector<ir::Node*> moved(static_cast<std::size_t>(count));
  if (graph.GetArena() == side.entries->GetArena()) {
    part.UnsafeArenaExtractSubrange(0, count, moved.data());
  } else {
    part.ExtractSubrange(0, count, moved.data());
  }
  nodes.Reserve(nodes.size() + count);
  nodes_read_beside_ = static_cast<std::size_t>(count);
  for (ir::Node* node : moved) {
    if (graph.GetArena() != nullptr && graph.GetArena() == node->GetArena()) {
      nodes.UnsafeArenaAddAllocated(node);
    } else {
      nodes.AddAllocated(node);
    }
  }
  // Renumbering touches every node of the part, ~3 ms at 4,096 layers: the other thread,
  // done with its reading, does it while this walk reads the rest of the document, which
  // no longer looks at the nodes. finish_beside waits for it.
  if (interner_ != nullptr) {
    side.renumbered = side.renumber.get_future();
    side.hand_off->post([&side, moved = std::move(moved), ids = std::move(ids)] {
      for (ir::Node* node : moved) renumber(*node, ids);
      side.renumber.set_value();
    });
  }
  // At the list's ']', where the walk would be after its last element.
  od::json_iterator& it = iterator_of(doc_);
  const od::depth_t element_depth = it.depth();
  it.ascend_to(element_depth - 1);
  it.ascend_to(element_depth - 2);
  it.reenter_child(side.nodes_end, element_depth - 1);
  release_->jumped(here, side.split_offset, side.nodes_end, side.nodes_end_offset);
  return true;
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
  wait_for_side();
  hold_at_next_tail();  // the other thread is done; what it gave back is skipped below
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
  tensor_values_read_beside_ = true;
  if (side.fatal) fatal_ = true;
  return true;
}

void Walker::hold_at_next_tail() {
  SideRead& side = *side_;
  for (const SideRead::TailValue& tail : side.tail) {
    if (tail.value_at == nullptr || tail.taken) continue;
    side.hold.offset.store(tail.value_offset, std::memory_order_release);
    side.hold.token.store(tail.value_at, std::memory_order_release);
    release_->hold_from(&side.hold);
    return;
  }
  release_->hold_from(nullptr);
}

bool Walker::take_tail(pb::Message& graph_module, const FieldEntry& f) {
  SideRead& side = *side_;
  if (&graph_module != side.graph_module) return false;
  SideRead::TailValue* tail = nullptr;
  for (SideRead::TailValue& value : side.tail) {
    if (value.field == &f) tail = &value;
  }
  if (tail == nullptr) return false;
  int state = SideRead::kPosted;
  if (side.state.compare_exchange_strong(state, SideRead::kCancelled) || state == SideRead::kCancelled) {
    release_->hold_from(nullptr);  // the other thread never started: read here
    return false;
  }
  wait_for_side();
  if (tail->value_at == nullptr || tail->taken) return false;
  tail->taken = true;
  if (next_token(doc_) != tail->value_at) {  // as for tensor_values: see the top of the file
    read_again_ = true;
    fatal_ = true;
    return true;
  }
  copy_cursor(doc_, tail->cursor);
  release_->jumped(tail->value_at, tail->value_offset, tail->ended_at, tail->ended_offset);
  auto& into = static_cast<ir::GraphModule&>(graph_module);
  if (tail == &side.tail[0]) {
    into.mutable_signature()->Swap(side.tail_entries->mutable_signature());
  } else {
    into.mutable_module_call_graph()->Swap(side.tail_entries->mutable_module_call_graph());
  }
  reporter_.adopt(tail->reporter);
  if (tail->fatal) fatal_ = true;
  module_tail_read_beside_ = true;
  hold_at_next_tail();
  return true;
}

bool Walker::finish_beside() {
  if (side_ == nullptr) return read_again_;
  const bool ran = stop_or_wait(*side_);
  if (side_->renumbered.valid()) side_->renumbered.get();
  side_->waited = true;
  release_->hold_from(nullptr);
  // The other thread read a part and gave back input behind it, and this walk did not take
  // it where it starts: this walk may have read that input.
  if (ran && ((side_->value_at != nullptr && !side_->taken) ||
              (side_->split_at != nullptr && !side_->nodes_taken))) {
    read_again_ = true;
  }
  for (const SideRead::TailValue& tail : side_->tail) {
    if (ran && tail.value_at != nullptr && !tail.taken) read_again_ = true;
  }
  return read_again_;
}

}  // namespace pt2lint::json_reader
