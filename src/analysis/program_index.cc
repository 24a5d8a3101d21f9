#include "analysis/program_index.h"

#include "analysis/state/state_storage.h"

#include <algorithm>
#include <string>

namespace pt2lint {
namespace {

std::uint8_t table_bit(ValueTable table) { return std::uint8_t(1u << static_cast<int>(table)); }

// The slot of an input spec kind that has a target, or -1.
int target_kind(std::string_view kind) {
  if (kind == "parameter") return 0;
  if (kind == "buffer") return 1;
  if (kind == "tensor_constant") return 2;
  if (kind == "custom_obj") return 3;
  return -1;
}

void add_name(std::string_view name, std::vector<std::string_view>& out) {
  if (!name.empty()) out.push_back(name);
}

}  // namespace

std::string_view dialect_name(Dialect dialect) {
  switch (dialect) {
    case Dialect::kTraining: return "TRAINING";
    case Dialect::kAten: return "ATEN";
    case Dialect::kOther: return "OTHER";
    case Dialect::kUnknown: return "";
  }
  return "";
}

void collect_value_names(const ir::Argument& a, std::vector<std::string_view>& out) {
  using K = ir::Argument::KindCase;
  switch (a.kind_case()) {
    case K::kAsTensor: add_name(a.as_tensor().name(), out); break;
    case K::kAsTensors:
      for (const auto& t : a.as_tensors().items()) add_name(t.name(), out);
      break;
    case K::kAsSymInt:
      if (a.as_sym_int().has_as_name()) add_name(a.as_sym_int().as_name(), out);
      break;
    case K::kAsSymInts:
      for (const auto& s : a.as_sym_ints().items())
        if (s.has_as_name()) add_name(s.as_name(), out);
      break;
    case K::kAsSymBool:
      if (a.as_sym_bool().has_as_name()) add_name(a.as_sym_bool().as_name(), out);
      break;
    case K::kAsSymBools:
      for (const auto& s : a.as_sym_bools().items())
        if (s.has_as_name()) add_name(s.as_name(), out);
      break;
    case K::kAsSymFloat:
      if (a.as_sym_float().has_as_name()) add_name(a.as_sym_float().as_name(), out);
      break;
    case K::kAsSymFloats:
      for (const auto& s : a.as_sym_floats().items())
        if (s.has_as_name()) add_name(s.as_name(), out);
      break;
    case K::kAsOptionalTensors:
      for (const auto& t : a.as_optional_tensors().items())
        if (t.has_as_tensor()) add_name(t.as_tensor().name(), out);
      break;
    case K::kAsOptionalTensor:
      if (a.as_optional_tensor().has_as_tensor())
        add_name(a.as_optional_tensor().as_tensor().name(), out);
      break;
    case K::kAsCustomObj: add_name(a.as_custom_obj().name(), out); break;
    case K::kAsNestedTensors:
      for (const auto& list : a.as_nested_tensors().items())
        for (const auto& t : list.items()) add_name(t.name(), out);
      break;
    case K::kAsStringToArgument:
      for (const auto& entry : a.as_string_to_argument().items())
        collect_value_names(entry.value(), out);
      break;
    default: break;
  }
}

std::string_view argument_value_name(const ir::Argument& a) {
  // Every branch returns a view of the message's own string: a `cond ? str : ""` here would
  // build a temporary std::string and hand back a dangling view.
  constexpr std::string_view kNone;
  using K = ir::Argument::KindCase;
  switch (a.kind_case()) {
    case K::kAsTensor: return a.as_tensor().name();
    case K::kAsSymInt:
      if (a.as_sym_int().has_as_name()) return a.as_sym_int().as_name();
      return kNone;
    case K::kAsSymBool:
      if (a.as_sym_bool().has_as_name()) return a.as_sym_bool().as_name();
      return kNone;
    case K::kAsSymFloat:
      if (a.as_sym_float().has_as_name()) return a.as_sym_float().as_name();
      return kNone;
    case K::kAsCustomObj: return a.as_custom_obj().name();
    case K::kAsOptionalTensor:
      if (a.as_optional_tensor().has_as_tensor()) return a.as_optional_tensor().as_tensor().name();
      return kNone;
    default: return kNone;
  }
}

std::string_view input_spec_kind(const ir::InputSpec& spec) {
  using K = ir::InputSpec::KindCase;
  switch (spec.kind_case()) {
    case K::kUserInput: return "user_input";
    case K::kParameter: return "parameter";
    case K::kBuffer: return "buffer";
    case K::kTensorConstant: return "tensor_constant";
    case K::kCustomObj: return "custom_obj";
    case K::kToken: return "token";
    case K::kConstantInput: return "constant_input";
    case K::KIND_NOT_SET: return "";
  }
  return "";
}

std::string_view input_spec_arg_name(const ir::InputSpec& spec) {
  using K = ir::InputSpec::KindCase;
  switch (spec.kind_case()) {
    case K::kUserInput: return argument_value_name(spec.user_input().arg());
    case K::kParameter: return spec.parameter().arg().name();
    case K::kBuffer: return spec.buffer().arg().name();
    case K::kTensorConstant: return spec.tensor_constant().arg().name();
    case K::kCustomObj: return spec.custom_obj().arg().name();
    case K::kToken: return spec.token().arg().name();
    case K::kConstantInput: return spec.constant_input().name();
    case K::KIND_NOT_SET: return "";
  }
  return "";
}

std::string_view input_spec_target(const ir::InputSpec& spec) {
  using K = ir::InputSpec::KindCase;
  switch (spec.kind_case()) {
    case K::kParameter: return spec.parameter().parameter_name();
    case K::kBuffer: return spec.buffer().buffer_name();
    case K::kTensorConstant: return spec.tensor_constant().tensor_constant_name();
    case K::kCustomObj: return spec.custom_obj().custom_obj_name();
    default: return "";
  }
}

std::string_view output_spec_kind(const ir::OutputSpec& spec) {
  using K = ir::OutputSpec::KindCase;
  switch (spec.kind_case()) {
    case K::kUserOutput: return "user_output";
    case K::kLossOutput: return "loss_output";
    case K::kBufferMutation: return "buffer_mutation";
    case K::kGradientToParameter: return "gradient_to_parameter";
    case K::kGradientToUserInput: return "gradient_to_user_input";
    case K::kUserInputMutation: return "user_input_mutation";
    case K::kToken: return "token";
    case K::kParameterMutation: return "parameter_mutation";
    case K::KIND_NOT_SET: return "";
  }
  return "";
}

std::string_view output_spec_arg_name(const ir::OutputSpec& spec) {
  using K = ir::OutputSpec::KindCase;
  switch (spec.kind_case()) {
    case K::kUserOutput: return argument_value_name(spec.user_output().arg());
    case K::kLossOutput: return spec.loss_output().arg().name();
    case K::kBufferMutation: return spec.buffer_mutation().arg().name();
    case K::kGradientToParameter: return spec.gradient_to_parameter().arg().name();
    case K::kGradientToUserInput: return spec.gradient_to_user_input().arg().name();
    case K::kUserInputMutation: return spec.user_input_mutation().arg().name();
    case K::kToken: return spec.token().arg().name();
    case K::kParameterMutation: return spec.parameter_mutation().arg().name();
    case K::KIND_NOT_SET: return "";
  }
  return "";
}

std::string_view output_spec_target(const ir::OutputSpec& spec) {
  using K = ir::OutputSpec::KindCase;
  switch (spec.kind_case()) {
    case K::kBufferMutation: return spec.buffer_mutation().buffer_name();
    case K::kGradientToParameter: return spec.gradient_to_parameter().parameter_name();
    case K::kGradientToUserInput: return spec.gradient_to_user_input().user_input_name();
    case K::kUserInputMutation: return spec.user_input_mutation().user_input_name();
    case K::kParameterMutation: return spec.parameter_mutation().parameter_name();
    default: return "";
  }
}

std::string_view value_table_name(ValueTable table) {
  switch (table) {
    case ValueTable::kTensor: return "tensor_values";
    case ValueTable::kSymInt: return "sym_int_values";
    case ValueTable::kSymBool: return "sym_bool_values";
    case ValueTable::kSymFloat: return "sym_float_values";
  }
  return "";
}

void collect_typed_values(const ir::Argument& a, std::vector<TypedValue>& out) {
  using K = ir::Argument::KindCase;
  switch (a.kind_case()) {
    case K::kAsTensor: out.push_back({a.as_tensor().name(), ValueTable::kTensor}); break;
    case K::kAsTensors:
      for (const auto& t : a.as_tensors().items()) out.push_back({t.name(), ValueTable::kTensor});
      break;
    case K::kAsOptionalTensors:
      for (const auto& t : a.as_optional_tensors().items())
        if (t.has_as_tensor()) out.push_back({t.as_tensor().name(), ValueTable::kTensor});
      break;
    case K::kAsOptionalTensor:
      if (a.as_optional_tensor().has_as_tensor())
        out.push_back({a.as_optional_tensor().as_tensor().name(), ValueTable::kTensor});
      break;
    case K::kAsSymInt:
      if (a.as_sym_int().has_as_name())
        out.push_back({a.as_sym_int().as_name(), ValueTable::kSymInt});
      break;
    case K::kAsSymInts:
      for (const auto& v : a.as_sym_ints().items())
        if (v.has_as_name()) out.push_back({v.as_name(), ValueTable::kSymInt});
      break;
    case K::kAsSymBool:
      if (a.as_sym_bool().has_as_name())
        out.push_back({a.as_sym_bool().as_name(), ValueTable::kSymBool});
      break;
    case K::kAsSymBools:
      for (const auto& v : a.as_sym_bools().items())
        if (v.has_as_name()) out.push_back({v.as_name(), ValueTable::kSymBool});
      break;
    case K::kAsSymFloat:
      if (a.as_sym_float().has_as_name())
        out.push_back({a.as_sym_float().as_name(), ValueTable::kSymFloat});
      break;
    case K::kAsSymFloats:
      for (const auto& v : a.as_sym_floats().items())
        if (v.has_as_name()) out.push_back({v.as_name(), ValueTable::kSymFloat});
      break;
    default: break;  // constants, tokens, custom objects: no metadata table
  }
}

bool is_mutation_output(const ir::OutputSpec& spec) {
  return spec.has_buffer_mutation() || spec.has_parameter_mutation() ||
         spec.has_user_input_mutation();
}

ProgramIndex::ProgramIndex(const ir::Program& program) : program_(program) {
  const ir::ExportedProgram& ep = program.program();
  for (const std::string& v : ep.verifiers()) {
    if (v == "TRAINING") dialect_ = Dialect::kTraining;
    else if (v == "ATEN") dialect_ = Dialect::kAten;
    else if (dialect_ == Dialect::kUnknown) dialect_ = Dialect::kOther;
  }
  if (dialect_ == Dialect::kUnknown && !ep.dialect().empty()) {
    dialect_ = ep.dialect() == "TRAINING" ? Dialect::kTraining
               : ep.dialect() == "ATEN"   ? Dialect::kAten
                                          : Dialect::kOther;
  }
  const ir::Graph& g = graph();
  // Most names appear as a node output, a tensor_values key and a node name at once; a few
  // (placeholders, constants read but never defined) add to that.
  const std::size_t expected =
      static_cast<std::size_t>(g.inputs_size() + g.nodes_size() + g.tensor_values_size()) + 16;
  names_.reserve(expected);
  infos_.reserve(expected);
  // Tables first: the metadata fact is decided while walking the definitions.
  index_tables(g);
  index_values(g);
  index_specs();
}

int ProgramIndex::intern(std::string_view name) {
  const int id = names_.intern(name);
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
void ProgramIndex::index_values(const ir::Graph& g) {
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
  for (int n = 0; n < g.nodes_size(); ++n) {
    const ir::Node& node = g.nodes(n);
    names.clear();
    bool has_subgraph = false;
    for (const ir::NamedArgument& input : node.inputs()) {
      collect_value_names(input.arg(), names);
      has_subgraph = has_subgraph || input.arg().has_as_graph();
    }
    if (has_subgraph) subgraph_nodes_.push_back(n);
    for (std::string_view name : names) {
      const int id = intern(name);
      grow();
      // Defined so far = by a graph input or a node before n.
      if (!infos_[id].defined()) ssa_facts_.reads_defined = false;
      if (last_reader[id] != n) {
        last_reader[id] = n;
        reads.emplace_back(id, n);
      }
    }
    names.clear();
    for (const ir::Argument& output : node.outputs()) {
      collect_value_names(output, names);
      check_metadata(output);
    }
    for (std::string_view name : names) {
      const int id = intern(name);
      grow();
      define_fx(id);
      NameInfo& info = infos_[id];
      ++info.definitions;
      if (!info.defined()) info.first = ValueDef{-1, n};
    }
    const bool named = node.has_name() && !node.name().empty();
    if (named && std::find(names.begin(), names.end(), node.name()) == names.end()) {
      const int id = intern(node.name());
      grow();
      define_fx(id);
    }
    // The FX node name (see node_name()); "" is indexed too, as before.
    const std::string_view fx_name = named ? std::string_view(node.name())
                                     : names.empty() ? std::string_view()
                                                     : names.front();
    NameInfo& named_info = infos_[intern(fx_name)];
    if (named_info.node < 0) named_info.node = n;
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
    const int kind = target_kind(input_spec_kind(spec));
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

std::optional<int> ProgramIndex::input_spec_by_target(std::string_view kind,
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
  const ir::Node& n = graph().nodes(node);
  if (n.has_name() && !n.name().empty()) return n.name();
  std::vector<std::string_view> names;
  for (const ir::Argument& output : n.outputs()) {
    collect_value_names(output, names);
    if (!names.empty()) return names.front();
  }
  return "";
}

std::string_view ProgramIndex::node_metadata(int node, std::string_view key) const {
  for (const ir::StringEntry& entry : graph().nodes(node).metadata()) {
    if (entry.key() == key) return entry.value();
  }
  return "";
}

const StateStorage& ProgramIndex::storage() const {
  if (!storage_) storage_ = std::make_shared<const StateStorage>(program_);
  return *storage_;
}

}  // namespace pt2lint
