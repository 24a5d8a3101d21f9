#include "reports/graph/contract_picture.h"

#include <fmt/format.h>

#include <algorithm>
#include <set>

#include "analysis/dataflow/effective_mutations.h"
#include "analysis/dataflow/program_dataflow.h"
#include "analysis/dataflow/tensor_meta_text.h"
#include "analysis/program_index.h"

namespace pt2lint::graph {
namespace {

std::string_view short_op(std::string_view target) {
  constexpr std::string_view kPrefix = "torch.ops.";
  if (target.starts_with(kPrefix)) target.remove_prefix(kPrefix.size());
  if (target.starts_with("aten.")) target.remove_prefix(5);
  if (target.ends_with(".default")) target.remove_suffix(8);
  return target;
}

std::string first_output_value(const ir::Node& node) {
  std::vector<std::string_view> names;
  for (const ir::Argument& output : node.outputs()) {
    collect_value_names(output, names);
    if (!names.empty()) return std::string(names.front());
  }
  return {};
}

}  // namespace

ContractPictureBuilder::ContractPictureBuilder(const ProgramIndex& index, bool trace_values)
    : index_(index), trace_values_(trace_values) {
  if (trace_values_) flow_ = std::make_unique<dataflow::ProgramDataflow>(index);
}

ContractPictureBuilder::~ContractPictureBuilder() = default;

int ContractPictureBuilder::add_box(std::string id, BoxKind kind, std::string title,
                                    std::string detail) {
  auto [it, added] = box_by_id_.emplace(id, static_cast<int>(picture_.boxes.size()));
  if (added) picture_.boxes.push_back({std::move(id), kind, std::move(title), std::move(detail)});
  return it->second;
}

void ContractPictureBuilder::add_edge(int from, int to, EdgeKind kind, std::string label) {
  if (from < 0 || to < 0) return;
  for (const Edge& edge : picture_.edges)
    if (edge.from == from && edge.to == to) return;
  picture_.edges.push_back({from, to, kind, std::move(label)});
}

void ContractPictureBuilder::mark(int from, int to, EdgeKind kind, std::string label) {
  if (from < 0 || to < 0) return;
  for (Edge& edge : picture_.edges) {
    if (edge.from == from && edge.to == to && edge.kind != EdgeKind::kExpected &&
        kind != EdgeKind::kExpected) {
      edge.kind = kind;
      edge.label = std::move(label);
      return;
    }
  }
  picture_.edges.push_back({from, to, kind, std::move(label)});
}

void ContractPictureBuilder::focus(int box) {
  if (box >= 0) picture_.boxes[box].focus = true;
}

std::string ContractPictureBuilder::state_name(int placeholder) const {
  const std::string_view name = index_.placeholder_names()[placeholder];
  const ir::InputSpec* spec = index_.input_spec_for(name);
  if (spec == nullptr) return std::string(name);
  std::string_view target = input_spec_target(*spec);
  return std::string(target.empty() ? name : target);
}

std::string ContractPictureBuilder::meta_of_value(std::string_view value) const {
  const ir::TensorMeta* meta = index_.tensor_meta(value);
  return meta == nullptr ? std::string() : dataflow::meta_text(*meta);
}

// "buffer", "user input", ...: the kind of the input spec of a placeholder, in words.
std::string ContractPictureBuilder::state_kind(int placeholder) const {
  const ir::InputSpec* spec = index_.input_spec_for(index_.placeholder_names()[placeholder]);
  std::string kind = spec == nullptr ? "placeholder" : std::string(state_kind_name(state_kind_of(*spec)));
  std::replace(kind.begin(), kind.end(), '_', ' ');
  return kind;
}

int ContractPictureBuilder::state_box(int placeholder) {
  const std::string kind = state_kind(placeholder);
  std::string meta = meta_of_value(index_.placeholder_names()[placeholder]);
  return add_box(fmt::format("s{}", placeholder), BoxKind::kState, state_name(placeholder),
                 meta.empty() ? kind : kind + " " + meta);
}

int ContractPictureBuilder::target_box(int placeholder) {
  return add_box(fmt::format("t{}", placeholder), BoxKind::kTarget, state_name(placeholder),
                 state_kind(placeholder) + " after the run");
}

int ContractPictureBuilder::node_box(int node) {
  const ir::Node& n = index_.graph().nodes(node);
  // A node with several outputs is described by the one on the slice (`getitem_3` of a
  // batch norm, not its first output).
  auto traced = traced_output_.find(node);
  std::string meta = meta_of_value(traced != traced_output_.end() ? std::string(traced->second)
                                                                  : first_output_value(n));
  std::string detail(short_op(n.target()));
  if (!meta.empty()) detail += " " + meta;
  return add_box(fmt::format("n{}", node), BoxKind::kNode, std::string(index_.node_name(node)),
                 std::move(detail));
}

int ContractPictureBuilder::output_box(int spec) {
  const ir::OutputSpec& output = index_.signature().output_specs(spec);
  std::string kind(output_spec_kind(output));
  std::string_view target = output_spec_target(output);
  std::string detail = target.empty() ? kind : fmt::format("{} → {}", kind, target);
  return add_box(fmt::format("o{}", spec), BoxKind::kOutput, fmt::format("output_specs[{}]", spec),
                 std::move(detail));
}

int ContractPictureBuilder::missing_box(std::string title, std::string detail) {
  return add_box(fmt::format("m{}", missing_++), BoxKind::kMissing, std::move(title),
                 std::move(detail));
}

int ContractPictureBuilder::collapsed_box(std::string title, std::string detail) {
  return add_box(fmt::format("c{}", collapsed_++), BoxKind::kCollapsed, std::move(title),
                 std::move(detail));
}

const std::vector<dataflow::StateWrite>& ContractPictureBuilder::written_states() {
  if (mutations_) return *mutations_;
  if (trace_values_) {
    mutations_ = dataflow::effective_mutations(index_, flow_->ops(), flow_->tracer());
    return *mutations_;
  }
  if (!write_backs_) write_backs_ = dataflow::resolved_write_backs(index_);
  std::map<int, dataflow::StateWrite> by_placeholder;
  for (const dataflow::ResolvedWriteBack& write_back : *write_backs_) {
    dataflow::StateWrite& write = by_placeholder[write_back.target];
    write.placeholder = write_back.target;
    write.write_backs.push_back(write_back.spec);
  }
  mutations_.emplace();
  for (auto& [placeholder, write] : by_placeholder) mutations_->push_back(std::move(write));
  return *mutations_;
}

int ContractPictureBuilder::add_node_chain(int first_box, const std::vector<int>& nodes) {
  int previous = first_box;
  auto link = [&](int box) {
    add_edge(previous, box, EdgeKind::kData);
    previous = box;
  };
  if (nodes.size() <= kMaxChainNodes) {
    for (int node : nodes) link(node_box(node));
    return previous;
  }
  // The two nodes nearest each end tell where the chain starts and what it ends in.
  link(node_box(nodes[0]));
  link(node_box(nodes[1]));
  std::set<std::string_view> ops;
  for (std::size_t i = 2; i + 2 < nodes.size() && ops.size() < 3; ++i)
    ops.insert(short_op(index_.graph().nodes(nodes[i]).target()));
  std::string detail;
  for (std::string_view op : ops) detail += (detail.empty() ? "" : ", ") + std::string(op);
  link(collapsed_box(fmt::format("… {} nodes …", nodes.size() - 4), std::move(detail)));
  link(node_box(nodes[nodes.size() - 2]));
  link(node_box(nodes.back()));
  return previous;
}

int ContractPictureBuilder::add_value(std::string_view value) {
  std::optional<ValueDef> def = index_.definition(value);
  if (!def) return -1;
  if (def->placeholder >= 0) return state_box(def->placeholder);
  if (!trace_values_) return node_box(def->node);
  std::vector<int> nodes;
  int origin = -1;
  for (const dataflow::TraceStep& step : flow_->tracer().chain(value, true)) {
    if (step.node >= 0 && (nodes.empty() || nodes.back() != step.node)) {
      nodes.push_back(step.node);
      traced_output_.emplace(step.node, step.value);
    }
    if (step.kind == dataflow::StepKind::kPlaceholder) origin = step.placeholder;
  }
  std::reverse(nodes.begin(), nodes.end());
  return add_node_chain(origin >= 0 ? state_box(origin) : -1, nodes);
}

int ContractPictureBuilder::add_node(int node) {
  const std::string value = first_output_value(index_.graph().nodes(node));
  if (!value.empty()) add_value(value);
  return node_box(node);
}

int ContractPictureBuilder::origin_of_value(std::string_view value) {
  if (!trace_values_) return -1;
  return flow_->tracer().update_origin(value).placeholder;
}

int ContractPictureBuilder::write_back_target(int spec) const {
  const ir::OutputSpec& output = index_.signature().output_specs(spec);
  return is_mutation_output(output) ? dataflow::mutation_target_placeholder(index_, output) : -1;
}

void ContractPictureBuilder::add_output(int spec) {
  const ir::OutputSpec& output = index_.signature().output_specs(spec);
  const int box = output_box(spec);
  const std::string_view value = output_spec_arg_name(output);
  if (!value.empty()) add_edge(add_value(value), box, EdgeKind::kData);
  if (!is_mutation_output(output)) return;
  const int target = write_back_target(spec);
  if (target >= 0) {
    add_edge(box, target_box(target), EdgeKind::kWriteBack, "writes back");
  } else {
    add_edge(box, missing_box(std::string(output_spec_target(output)), "no such state"),
             EdgeKind::kWriteBack, "writes back");
  }
}

void ContractPictureBuilder::add_state(int placeholder) {
  state_box(placeholder);
  bool written_back = false;
  if (!write_backs_) write_backs_ = dataflow::resolved_write_backs(index_);
  // A state written back thousands of times (a hostile or broken file) is drawn with its
  // first few write-backs and one box counting the rest: each picture stays bounded, so a
  // report of N such findings costs O(N), not O(N^2).
  std::size_t drawn = 0;
  std::size_t left_out = 0;
  for (const dataflow::ResolvedWriteBack& write_back : *write_backs_) {
    if (write_back.target != placeholder) continue;
    written_back = true;
    if (drawn < kMaxWriteBacksDrawn || box_by_id_.contains(fmt::format("o{}", write_back.spec))) {
      add_output(write_back.spec);
      ++drawn;
    } else {
      ++left_out;
    }
  }
  if (left_out > 0) {
    add_edge(collapsed_box(fmt::format("… {} more write-backs …", left_out),
                           "pt2lint check --format json lists each"),
             target_box(placeholder), EdgeKind::kWriteBack, "writes back");
  }
  if (written_back || !trace_values_) return;
  // TRAINING dialect: the state is written in place, by nodes in graph order.
  for (const dataflow::StateWrite& write : written_states()) {
    if (write.placeholder != placeholder || write.nodes.empty()) continue;
    add_edge(add_node_chain(state_box(placeholder), write.nodes), target_box(placeholder),
             EdgeKind::kWriteBack, "writes in place");
  }
}

Picture ContractPictureBuilder::take(std::string title) {
  picture_.title = std::move(title);
  box_by_id_.clear();
  return std::move(picture_);
}

}  // namespace pt2lint::graph
