#include "analysis/dataflow/auto_functionalized.h"

#include <algorithm>
#include <charconv>

#include "analysis/opschema/schema_catalog.h"
#include "core/ir/ir_accessors.h"

namespace pt2lint::dataflow {
namespace {

constexpr std::string_view kV1 = "torch.ops.higher_order.auto_functionalized";
constexpr std::string_view kV2 = "torch.ops.higher_order.auto_functionalized_v2";
constexpr std::string_view kBaseIndex = "_base_index";

// Tensor output names in order; a list output contributes each element.
void output_tensors(const ir::Argument& out, std::vector<std::string_view>& names) {
  if (out.has_as_tensor()) names.push_back(out.as_tensor().name());
  else if (out.has_as_tensors())
    for (const ir::TensorArgument& t : out.as_tensors().items()) names.push_back(t.name());
  else names.push_back({});  // None or a non-tensor slot: keeps positions aligned
}

// The view replay PyTorch recorded for written argument prefix `_x`.
std::string_view view_kind(const ir::Node& node, const std::string& prefix) {
  if (named_input(node, prefix + "_alias")) return "alias";
  if (named_input(node, prefix + "_slice_dim")) return "slice";
  if (named_input(node, prefix + "_storage_offset")) return "as_strided";
  return "base";
}

Status decode_v2(const ir::Node& node, AutoFunctionalizedCall& call) {
  const ir::Argument* bases = named_input(node, "_all_bases");
  if (bases == nullptr || !(bases->has_as_tensors() || bases->has_as_none())) {
    return Status::error("it has no `_all_bases` list");
  }
  std::vector<std::string_view> base_names;
  if (bases->has_as_tensors())
    for (const ir::TensorArgument& t : bases->as_tensors().items()) base_names.push_back(t.name());
  const int outputs = node.outputs_size();
  call.prefix = outputs - static_cast<int>(base_names.size());
  if (call.prefix < 0) {
    return Status::error("it has fewer outputs than `_all_bases` entries");
  }
  for (const ir::NamedArgument& input : node.inputs()) {
    std::string_view name = input.name();
    if (name.size() <= kBaseIndex.size() + 1 || name.front() != '_' || !name.ends_with(kBaseIndex)) continue;
    WrittenArgument written;
    written.name = std::string(name.substr(1, name.size() - 1 - kBaseIndex.size()));
    written.argument = written.name;
    // `_xs_1_base_index` is element 1 of list argument `xs` when the node records `_xs_length`.
    if (std::size_t underscore = written.name.rfind('_'); underscore != std::string::npos &&
        underscore + 1 < written.name.size() &&
        std::all_of(written.name.begin() + underscore + 1, written.name.end(),
                    [](char c) { return c >= '0' && c <= '9'; }) &&
        named_input(node, "_" + written.name.substr(0, underscore) + "_length")) {
      written.argument = written.name.substr(0, underscore);
      std::from_chars(written.name.data() + underscore + 1, written.name.data() + written.name.size(),
                      written.element);
    }
    if (input.arg().has_as_int()) written.base_index = static_cast<int>(input.arg().as_int());
    if (written.base_index >= static_cast<int>(base_names.size())) {
      return Status::error("`" + std::string(name) + "` names a base that `_all_bases` does not have");
    }
    written.view = view_kind(node, "_" + written.name);
    call.written.push_back(std::move(written));
  }
  for (std::size_t i = 0; i < base_names.size(); ++i) {
    const ir::Argument& out = node.outputs(call.prefix + static_cast<int>(i));
    if (!out.has_as_tensor()) continue;  // an unused update (`_unused_`) is still named; None is not
    AutoFunctionalizedCall::Update update{out.as_tensor().name(), base_names[i], {}};
    for (const WrittenArgument& w : call.written) {
      if (w.base_index != static_cast<int>(i)) continue;
      if (!update.argument.empty()) update.argument += ", ";
      update.argument += w.name;
    }
    call.updates.push_back(std::move(update));
  }
  return {};
}

Status decode_v1(const ir::Node& node, const opschema::SchemaCatalog* schemas, AutoFunctionalizedCall& call) {
  auto name = opschema::parse_serialized_target(call.op_target);
  std::optional<opschema::OpSchema> schema;
  if (name) schema = opschema::lookup_schema(*name, schemas).schema;
  if (!schema) {
    return Status::error("its op has no known schema, and auto_functionalized (v1) does not record which arguments it writes");
  }
  std::vector<std::string_view> written_args;
  for (const auto& arg : schema->arguments())
    if (arg.writes) written_args.push_back(arg.name);
  call.prefix = node.outputs_size() - static_cast<int>(written_args.size());
  if (call.prefix < 0) {
    return Status::error("it has fewer outputs than its op has written arguments");
  }
  for (std::size_t i = 0; i < written_args.size(); ++i) {
    const ir::Argument* in = named_input(node, written_args[i]);
    if (in == nullptr) continue;
    std::vector<std::string_view> ins, outs;
    output_tensors(*in, ins);
    output_tensors(node.outputs(call.prefix + static_cast<int>(i)), outs);
    if (ins.size() != outs.size()) continue;
    for (std::size_t k = 0; k < ins.size(); ++k) {
      if (ins[k].empty() || outs[k].empty()) continue;
      call.updates.push_back({outs[k], ins[k], std::string(written_args[i])});
    }
  }
  return {};
}

}  // namespace

AutoFunctionalizedVersion auto_functionalized_version(std::string_view target) {
  if (target == kV2) return AutoFunctionalizedVersion::kV2;
  if (target == kV1) return AutoFunctionalizedVersion::kV1;
  return AutoFunctionalizedVersion::kNone;
}

std::string_view auto_functionalized_op(const ir::Node& node) {
  if (auto_functionalized_version(node.target()) == AutoFunctionalizedVersion::kNone) return {};
  for (const ir::NamedArgument& input : node.inputs())
    if (input.arg().has_as_operator()) return input.arg().as_operator();
  return {};
}

Expected<AutoFunctionalizedCall> decode_auto_functionalized(const ir::Node& node,
                                                            const opschema::SchemaCatalog* schemas) {
  AutoFunctionalizedCall call;
  call.version = auto_functionalized_version(node.target());
  if (call.version == AutoFunctionalizedVersion::kNone) return Status::error("it is not an auto_functionalized node");
  call.op_target = auto_functionalized_op(node);
  if (call.op_target.empty()) {
    return Status::error("it names no `_mutable_op`");
  }
  Status decoded = call.version == AutoFunctionalizedVersion::kV2 ? decode_v2(node, call)
                                                                  : decode_v1(node, schemas, call);
  if (!decoded.ok()) return decoded;
  return call;
}

std::vector<std::string> written_argument_names(const AutoFunctionalizedCall& call) {
  std::vector<std::string> names;
  auto add = [&](std::string name) {
    if (std::find(names.begin(), names.end(), name) == names.end()) names.push_back(std::move(name));
  };
  if (call.version == AutoFunctionalizedVersion::kV1) {
    for (const auto& update : call.updates) add(update.argument);
    return names;
  }
  for (const WrittenArgument& w : call.written) add(w.argument);
  return names;
}

}  // namespace pt2lint::dataflow
