#include "lowering/auto_functionalize.h"

#include <fmt/format.h>

#include <algorithm>

#include "analysis/opschema/schema_catalog.h"
#include "lowering/argument_values.h"

namespace pt2lint::lowering {
namespace {

constexpr int kPositional = 1;
constexpr int kKeyword = 2;

ir::NamedArgument* add_input(ir::Node& node, std::string name, int kind) {
  ir::NamedArgument* input = node.add_inputs();
  input->set_name(std::move(name));
  input->set_kind(kind);
  return input;
}

}  // namespace

std::optional<opschema::OpSchema> custom_mutating_schema(std::string_view target,
                                                         const opschema::SchemaCatalog* schemas) {
  auto name = opschema::parse_serialized_target(target);
  if (!name || opschema::find_schema(*name)) return std::nullopt;  // the table's ops have twins
  opschema::SchemaLookup found = opschema::lookup_schema(*name, schemas);
  if (!found.schema || !found.schema->is_mutable()) return std::nullopt;
  return found.schema;
}

std::string lower_to_auto_functionalized_v2(const ir::Node& call, const opschema::OpSchema& schema,
                                            const std::function<std::string(const std::string&)>& read,
                                            const std::function<std::string(std::string_view)>& fresh,
                                            AutoFunctionalizedLowering& out) {
  const std::string op = call.name().empty() ? call.target() : call.name();
  for (const auto& ret : schema.returns()) {
    if (ret.aliases_argument >= 0 || ret.alias_set >= 0)
      return fmt::format("node '{}' ({}) returns a tensor that aliases an argument; the reference lowering "
                         "turns into auto_functionalized_v2 only custom ops whose returns are fresh tensors",
                         op, call.target());
  }
  ir::Node& node = out.node;
  node.set_target("torch.ops.higher_order.auto_functionalized_v2");
  node.set_is_hop_single_tensor_return(false);  // as PyTorch writes it
  add_input(node, "", kPositional)->mutable_arg()->set_as_operator(call.target());

  // Arguments the op only reads are passed by name, as they are now.
  for (const auto& argument : schema.arguments()) {
    if (argument.writes) continue;
    const ir::NamedArgument* input = find_input(call, argument.name);
    if (input == nullptr) continue;  // left at its default, as the original call did
    ir::NamedArgument* copy = add_input(node, std::string(argument.name), kKeyword);
    *copy->mutable_arg() = input->arg();
    rewrite_tensor_names(*copy->mutable_arg(), [&](const std::string& v) { return read(v); });
  }
  // Written arguments become bases: each distinct tensor once, in order of appearance.
  std::vector<std::string> originals;  // the values the op writes
  auto base_index = [&](const std::string& value) {
    auto it = std::find(originals.begin(), originals.end(), value);
    if (it != originals.end()) return static_cast<int>(it - originals.begin());
    originals.push_back(value);
    return static_cast<int>(originals.size()) - 1;
  };
  for (const auto& argument : schema.arguments()) {
    if (!argument.writes) continue;
    const ir::NamedArgument* input = find_input(call, argument.name);
    const std::string prefix = fmt::format("_{}", argument.name);
    if (input == nullptr || input->arg().has_as_none() ||
        (input->arg().has_as_optional_tensor() && !input->arg().as_optional_tensor().has_as_tensor())) {
      const bool list = argument.type == opschema::ValueType::kTensorList ||
                        argument.type == opschema::ValueType::kOptionalTensorList;
      if (list)
        add_input(node, prefix + "_length", kKeyword)->mutable_arg()->set_as_none(true);
      else
        add_input(node, prefix + "_base_index", kKeyword)->mutable_arg()->set_as_none(true);
      continue;
    }
    if (input->arg().has_as_tensors()) {
      const auto& items = input->arg().as_tensors().items();
      add_input(node, prefix + "_length", kKeyword)->mutable_arg()->set_as_int(items.size());
      for (int i = 0; i < items.size(); ++i)
        add_input(node, fmt::format("{}_{}_base_index", prefix, i), kKeyword)
            ->mutable_arg()
            ->set_as_int(base_index(items[i].name()));
      continue;
    }
    const std::string value(single_tensor(input->arg()));
    if (value.empty())
      return fmt::format("node '{}' ({}) writes argument '{}', which is not a tensor or a tensor list", op,
                         call.target(), argument.name);
    add_input(node, prefix + "_base_index", kKeyword)->mutable_arg()->set_as_int(base_index(value));
  }
  auto* bases = add_input(node, "_all_bases", kKeyword)->mutable_arg()->mutable_as_tensors();
  for (const std::string& value : originals) bases->add_items()->set_name(read(value));

  // Outputs: the op's own returns (one None slot when it returns nothing), then the bases.
  if (schema.returns().empty()) {
    node.add_outputs()->set_as_none(true);
  } else {
    if (call.outputs_size() != static_cast<int>(schema.returns().size()))
      return fmt::format("node '{}' ({}) has {} outputs, its schema {} returns", op, call.target(),
                         call.outputs_size(), schema.returns().size());
    for (const ir::Argument& output : call.outputs()) *node.add_outputs() = output;
  }
  for (const std::string& value : originals) {
    std::string updated = fresh("getitem");
    node.add_outputs()->mutable_as_tensor()->set_name(updated);
    out.updates.emplace_back(value, std::move(updated));
  }
  node.set_name(fresh("auto_functionalized_v2"));
  return {};
}

}  // namespace pt2lint::lowering
