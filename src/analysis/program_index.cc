#include "analysis/program_index.h"

#include "analysis/state/cache_ranges.h"
#include "analysis/state/state_storage.h"
#include "core/ir/node_metadata.h"
#include "support/hand_off.h"

#include <algorithm>
#include <exception>
#include <future>
#include <string>

namespace pt2lint {
namespace {

std::uint8_t table_bit(ValueTable table) { return std::uint8_t(1u << static_cast<int>(table)); }

// The slot of an input spec kind that has a target, or -1.
int target_kind(StateKind kind) {
  switch (kind) {
    case StateKind::kParameter: return 0;
    case StateKind::kBuffer: return 1;
    case StateKind::kTensorConstant: return 2;
    case StateKind::kCustomObj: return 3;
    default: return -1;
  }
}

// A name and its hash, read from the IR before it is interned.
struct HashedName {
  std::string_view text;
  std::uint64_t hash;
};
struct HashedTyped {
  HashedName name;
  ValueTable table;
};

// What the index reads of a run of nodes, gathered in flat arrays before any name is
// interned: following the IR's pointers and hashing its names is most of the index's time
// at 100k nodes, and can be shared between two threads (the interning cannot).
struct GatheredNodes {
  struct Node {
    std::size_t inputs_end, typed_end, outputs_end;  // ends in the arrays below
    HashedName target, name, fx_name;
    bool named, has_subgraph;
  };
  std::vector<HashedName> inputs;   // value names the node reads
  std::vector<HashedTyped> typed;   // values its outputs define that have a metadata table
  std::vector<HashedName> outputs;  // value names its outputs define
  std::vector<Node> nodes;
};

HashedName hashed(std::string_view text) { return {text, NameTable::hash(text)}; }

void gather_nodes(const ir::Graph& g, int begin, int end, GatheredNodes& out) {
  const auto count = static_cast<std::size_t>(end - begin);
  out.nodes.reserve(count);
  out.inputs.reserve(count * 3);
  out.outputs.reserve(count);
  out.typed.reserve(count);
  std::vector<std::string_view> names;
  std::vector<TypedValue> typed;
  for (int n = begin; n < end; ++n) {
    const ir::Node& node = g.nodes(n);
    GatheredNodes::Node gathered{};
    names.clear();
    for (const ir::NamedArgument& input : node.inputs()) {
      collect_value_names(input.arg(), names);
      gathered.has_subgraph = gathered.has_subgraph || input.arg().has_as_graph();
    }
    for (std::string_view name : names) out.inputs.push_back(hashed(name));
    typed.clear();
    names.clear();
    for (const ir::Argument& output : node.outputs()) {
      collect_typed_values(output, typed);
      collect_value_names(output, names);
    }
    for (const TypedValue& value : typed) {
      if (!value.name.empty()) out.typed.push_back({hashed(value.name), value.table});
    }
    for (std::string_view name : names) out.outputs.push_back(hashed(name));
    gathered.inputs_end = out.inputs.size();
    gathered.typed_end = out.typed.size();
    gathered.outputs_end = out.outputs.size();
    gathered.target = hashed(node.target());
    gathered.named = node.has_name() && !node.name().empty();
    gathered.name = gathered.named ? hashed(node.name()) : HashedName{};
    gathered.fx_name = hashed(fx_node_name(node));
    out.nodes.push_back(gathered);
  }
}

// The nodes of `g` gathered, the second half on the thread serving `other` when there is one.
std::vector<GatheredNodes> gather_all_nodes(const ir::Graph& g, HandOff* other) {
  const int count = g.nodes_size();
  if (other == nullptr || count < 2) {
    std::vector<GatheredNodes> all(1);
    gather_nodes(g, 0, count, all[0]);
    return all;
  }
  std::vector<GatheredNodes> halves(2);
  const int middle = count / 2;
  std::promise<void> done;
  std::future<void> finished = done.get_future();
  other->post([&] {
    try {
      gather_nodes(g, middle, count, halves[1]);
      done.set_value();
    } catch (...) {
      done.set_exception(std::current_exception());
    }
  });
  gather_nodes(g, 0, middle, halves[0]);
  finished.get();
  return halves;
}

}  // namespace

ProgramIndex::ProgramIndex(const ir::Program& program, HandOff* other)
    : program_(program), dialect_(dialect_of(program.program())) {
  const ir::Graph& g = graph();
  // Most names appear as a node output, a tensor_values key and a node name at once; a few
  // (placeholders, constants read but never defined) add to that.
  const std::size_t expected =
      static_cast<std::size_t>(g.inputs_size() + g.nodes_size() + g.tensor_values_size()) + 16;
  names_.reserve(expected);
  infos_.reserve(expected);
  // Tables first: the metadata fact is decided while walking the definitions.
  index_tables(g);
  index_values(g, other);
  index_specs();
}

int ProgramIndex::intern(std::string_view name) {
  return intern_hashed(name, NameTable::hash(name));
}

int ProgramIndex::intern_hashed(std::string_view name, std::uint64_t hash) {
  const int id = names_.intern_hashed(name, hash);
  if (static_cast<std::size_t>(id) == infos_.size()) infos_.emplace_back();
  return id;
}

const ProgramIndex::NameInfo* ProgramIndex::info(std::string_view name) const {
  const int id = names_.find(name);
  return id == NameTable::kAbsent ? nullptr : &infos_[static_cast<std::size_t>(id)];
}

void ProgramIndex::index_tables(const ir::Graph& g) {
  for (const auto& entry : g.tensor_values()) {
    NameInfo& info = infos_[intern(entry.key())];
    if (info.tensor_meta == nullptr) info.tensor_meta = &entry.value();
    info.tables |= table_bit(ValueTable::kTensor);
  }
  for (const auto& entry : g.sym_int_values())
    infos_[intern(entry.key())].tables |= table_bit(ValueTable::kSymInt);
  for (const auto& entry : g.sym_bool_values())
    infos_[intern(entry.key())].tables |= table_bit(ValueTable::kSymBool);
  for (const auto& entry : g.sym_float_values())
    infos_[intern(entry.key())].tables |= table_bit(ValueTable::kSymFloat);
}

// One walk over the graph inputs and nodes: definitions, users, node names, and the facts
// the SSA rules would otherwise each compute with a walk and a string map of their own.
void ProgramIndex::index_values(const ir::Graph& g, HandOff* other) {
  // Per name id, grown as names are interned: how many FX definitions (inputs, outputs and
  // node names, as value-names-unique counts them) and the last node that read it.
  std::vector<int> fx_definitions;
  std::vector<int> last_reader;
  auto grow = [&] {
    fx_definitions.resize(infos_.size(), 0);
    last_reader.resize(infos_.size(), -1);
  };
  auto define_fx = [&](int id) {
    if (++fx_definitions[static_cast<std::size_t>(id)] > 1) ssa_facts_.names_unique = false;
  };
  std::vector<std::string_view> names;
  std::vector<TypedValue> typed;
  auto check_metadata = [&](const ir::Argument& argument) {
    typed.clear();
    collect_typed_values(argument, typed);
    for (const TypedValue& value : typed) {
      if (!value.name.empty() && !has_metadata(value.name, value.table))
        ssa_facts_.metadata_complete = false;
    }
  };

  placeholders_.reserve(static_cast<std::size_t>(g.inputs_size()));
  for (int i = 0; i < g.inputs_size(); ++i) {
    const ir::Argument& input = g.inputs(i);
    names.clear();
    collect_value_names(input, names);
    for (std::string_view name : names) {
      const int id = intern(name);
      grow();
      define_fx(id);
    }
    check_metadata(input);
    const std::string_view name = argument_value_name(input);
    placeholders_.push_back(name);
    if (name.empty()) continue;
    NameInfo& info = infos_[intern(name)];
    ++info.definitions;
    if (!info.defined()) info.first = ValueDef{i, -1};
  }

  // (name id, node) for every node that reads a name, once per node, in node order.
  std::vector<std::pair<int, int>> reads;
  reads.reserve(static_cast<std::size_t>(g.nodes_size()) * 3);
  node_ops_.reserve(static_cast<std::size_t>(g.nodes_size()));
  int n = 0;
  for (const GatheredNodes& part : gather_all_nodes(g, other)) {
    std::size_t input = 0, typed_at = 0, output = 0;
    for (const GatheredNodes::Node& node : part.nodes) {
      if (node.has_subgraph) subgraph_nodes_.push_back(n);
      node_ops_.push_back(ops_.intern_hashed(node.target.text, node.target.hash));
      for (; input < node.inputs_end; ++input) {
        const int id = intern_hashed(part.inputs[input].text, part.inputs[input].hash);
        grow();
        // Defined so far = by a graph input or a node before n.
        if (!infos_[id].defined()) ssa_facts_.reads_defined = false;
        if (last_reader[id] != n) {
          last_reader[id] = n;
          reads.emplace_back(id, n);
        }
      }
      // Interning a name before its definition below is invisible: an id with no
      // definition, entry or user answers as absent.
      for (; typed_at < node.typed_end; ++typed_at) {
        const HashedTyped& value = part.typed[typed_at];
        const int id = intern_hashed(value.name.text, value.name.hash);
        grow();
        if ((infos_[static_cast<std::size_t>(id)].tables & table_bit(value.table)) == 0)
          ssa_facts_.metadata_complete = false;
      }
      int named_id = NameTable::kAbsent;  // the id of the FX node name, when an output has it
      bool name_is_output = false;
      for (; output < node.outputs_end; ++output) {
        const HashedName& name = part.outputs[output];
        const int id = intern_hashed(name.text, name.hash);
        grow();
        define_fx(id);
        NameInfo& info = infos_[id];
        ++info.definitions;
        if (!info.defined()) info.first = ValueDef{-1, n};
        if (name.text == node.fx_name.text) named_id = id;
        if (node.named && name.text == node.name.text) name_is_output = true;
      }
      if (node.named && !name_is_output) {
        const int id = intern_hashed(node.name.text, node.name.hash);
        grow();
        define_fx(id);
      }
      // The FX node name; "" is indexed too, as before.
      if (named_id == NameTable::kAbsent) named_id = intern_hashed(node.fx_name.text, node.fx_name.hash);
      grow();
      NameInfo& named_info = infos_[static_cast<std::size_t>(named_id)];
      if (named_info.node < 0) named_info.node = n;
      ++n;
    }
  }

  // Users as CSR: count per name, prefix sums, then place reads in node order.
  user_begin_.assign(infos_.size() + 1, 0);
  for (const auto& [id, n] : reads) ++user_begin_[static_cast<std::size_t>(id) + 1];
  for (std::size_t i = 1; i < user_begin_.size(); ++i) user_begin_[i] += user_begin_[i - 1];
  user_nodes_.resize(reads.size());
  std::vector<int> next(user_begin_.begin(), user_begin_.end() - 1);
  for (const auto& [id, n] : reads) user_nodes_[static_cast<std::size_t>(next[id]++)] = n;

  outputs_.reserve(static_cast<std::size_t>(g.outputs_size()));
  for (const ir::Argument& output : g.outputs()) outputs_.push_back(argument_value_name(output));
}

void ProgramIndex::index_specs() {
  const ir::GraphSignature& sig = signature();
  targets_.reserve(static_cast<std::size_t>(sig.input_specs_size()));
  for (int i = 0; i < sig.input_specs_size(); ++i) {
    const ir::InputSpec& spec = sig.input_specs(i);
    const std::string_view arg = input_spec_arg_name(spec);
    if (!arg.empty()) {
      NameInfo& info = infos_[intern(arg)];
      if (info.input_spec < 0) info.input_spec = i;
    }
    const std::string_view target = input_spec_target(spec);
    const int kind = target_kind(state_kind_of(spec));
    if (target.empty() || kind < 0) continue;
    const int id = targets_.intern(target);
    if (static_cast<std::size_t>(id) == spec_by_target_.size()) {
      spec_by_target_.emplace_back();
      spec_by_target_.back().fill(-1);
    }
    int& slot = spec_by_target_[static_cast<std::size_t>(id)][static_cast<std::size_t>(kind)];
    if (slot < 0) slot = i;
  }
  // Names interned here (spec args that no graph input defines) have no users.
  user_begin_.resize(infos_.size() + 1, user_begin_.back());
}

std::optional<ValueDef> ProgramIndex::definition(std::string_view value) const {
  const NameInfo* i = info(value);
  if (i == nullptr || !i->defined()) return std::nullopt;
  return i->first;
}

int ProgramIndex::definition_count(std::string_view value) const {
  const NameInfo* i = info(value);
  return i == nullptr ? 0 : i->definitions;
}

std::span<const int> ProgramIndex::users(std::string_view value) const {
  const int id = names_.find(value);
  if (id == NameTable::kAbsent) return {};
  const auto begin = static_cast<std::size_t>(user_begin_[static_cast<std::size_t>(id)]);
  const auto end = static_cast<std::size_t>(user_begin_[static_cast<std::size_t>(id) + 1]);
  return std::span<const int>(user_nodes_).subspan(begin, end - begin);
}

const ir::TensorMeta* ProgramIndex::tensor_meta(std::string_view value) const {
  const NameInfo* i = info(value);
  return i == nullptr ? nullptr : i->tensor_meta;
}

bool ProgramIndex::has_sym_value(std::string_view value) const {
  const NameInfo* i = info(value);
  constexpr std::uint8_t kSym = 1u << static_cast<int>(ValueTable::kSymInt) |
                                1u << static_cast<int>(ValueTable::kSymBool) |
                                1u << static_cast<int>(ValueTable::kSymFloat);
  return i != nullptr && (i->tables & kSym) != 0;
}

bool ProgramIndex::has_metadata(std::string_view value, ValueTable table) const {
  const NameInfo* i = info(value);
  return i != nullptr && (i->tables & table_bit(table)) != 0;
}

std::optional<int> ProgramIndex::input_spec_index(std::string_view placeholder) const {
  const NameInfo* i = info(placeholder);
  if (i == nullptr || i->input_spec < 0) return std::nullopt;
  return i->input_spec;
}

const ir::InputSpec* ProgramIndex::input_spec_for(std::string_view placeholder) const {
  auto index = input_spec_index(placeholder);
  return index ? &signature().input_specs(*index) : nullptr;
}

std::optional<int> ProgramIndex::input_spec_by_target(StateKind kind,
                                                      std::string_view fqn) const {
  const int k = target_kind(kind);
  const int id = targets_.find(fqn);
  if (k < 0 || id == NameTable::kAbsent) return std::nullopt;
  const int spec = spec_by_target_[static_cast<std::size_t>(id)][static_cast<std::size_t>(k)];
  if (spec < 0) return std::nullopt;
  return spec;
}

std::optional<int> ProgramIndex::node_by_name(std::string_view node_name) const {
  const NameInfo* i = info(node_name);
  if (i == nullptr || i->node < 0) return std::nullopt;
  return i->node;
}

std::string_view ProgramIndex::node_name(int node) const {
  return fx_node_name(graph().nodes(node));
}

std::string_view ProgramIndex::node_metadata(int node, std::string_view key) const {
  return ir::node_metadata_value(program_, graph().nodes(node), key);
}

const StateStorage& ProgramIndex::storage() const {
  std::call_once(storage_once_,
                 [this] { storage_ = std::make_shared<const StateStorage>(program_); });
  return *storage_;
}

const std::vector<CacheWrite>& ProgramIndex::cache_writes() const {
  std::call_once(cache_writes_once_, [this] {
    cache_writes_ = std::make_shared<const std::vector<CacheWrite>>(find_cache_writes(*this));
  });
  return *cache_writes_;
}

}  // namespace pt2lint
