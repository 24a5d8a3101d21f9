#include "reports/graph/picture_builders.h"

#include <fmt/format.h>

#include <map>

#include "analysis/program_index.h"
#include "analysis/state/name_suggestions.h"
#include "core/rule_catalogue.h"

namespace pt2lint::graph {
namespace {

bool can_trace(const ProgramIndex& index);

// The placeholder index of a state named by FQN, placeholder name or user-input name.
int placeholder_of_state(const ProgramIndex& index, std::string_view state) {
  const auto& placeholders = index.placeholder_names();
  for (int i = 0; i < static_cast<int>(placeholders.size()); ++i) {
    if (placeholders[i] == state) return i;
    const ir::InputSpec* spec = index.input_spec_for(placeholders[i]);
    if (spec != nullptr && input_spec_target(*spec) == state) return i;
  }
  return -1;
}

std::string in_backticks(std::string_view name) { return fmt::format("`{}`", name); }

// The state a wrong target name was probably meant to be, for "did you mean".
std::optional<std::string> near_miss_state(const ProgramIndex& index, std::string_view wrong) {
  std::vector<NameCandidate> candidates;
  for (const ir::InputSpec& spec : index.signature().input_specs()) {
    std::string_view target = input_spec_target(spec);
    std::string_view placeholder = input_spec_arg_name(spec);
    candidates.push_back({target.empty() ? placeholder : target, placeholder});
  }
  std::optional<NearMiss> miss = find_near_miss(wrong, candidates);
  if (!miss) return std::nullopt;
  return miss->name;
}

// The boxes and marks of one finding, by rule. Rules not listed get the generic picture:
// the spec, state, value or node the finding points at, with that box in focus.
class FindingPainter {
 public:
  FindingPainter(const ProgramIndex& index, const Finding& finding)
      : index_(index), finding_(finding), builder_(index, can_trace(index)) {}

  Picture paint(std::string title) {
    const std::string& rule = finding_.rule_name;
    const std::optional<int>& spec = finding_.location.output_spec;
    const bool valid_spec = spec && *spec >= 0 && *spec < index_.signature().output_specs_size();
    if (valid_spec && (rule == kMutationValueDerivesFromTarget.name ||
                       rule == kWriteBackFromOtherState.name)) {
      paint_wrong_source(*spec);
    } else if (valid_spec && rule == kMutationTargetResolves.name) {
      paint_unresolved_target(*spec);
    } else if (valid_spec && (rule == kMutationShapeMatchesTarget.name ||
                              rule == kOneMutationPerBuffer.name)) {
      paint_bad_write_back(*spec);
    } else if (rule == kBufferWriteHasWriteBack.name && !finding_.location.value.empty()) {
      paint_dropped_write_back();
    } else if (valid_spec && rule == kOutputAliasesState.name) {
      builder_.add_output(*spec);
      builder_.focus(builder_.output_box(*spec));
      mark_into(builder_.output_box(*spec), "✗ returns the state itself");
    } else {
      paint_generic(valid_spec);
    }
    return builder_.take(std::move(title));
  }

 private:
  // The output writes back a value that is the update of another state (a swap).
  void paint_wrong_source(int spec) {
    builder_.add_output(spec);
    const int out = builder_.output_box(spec);
    builder_.focus(out);
    const int declared = builder_.write_back_target(spec);
    const std::string_view value = output_spec_arg_name(index_.signature().output_specs(spec));
    const int origin = builder_.origin_of_value(value);
    // Both states with their write-backs: the other half of a swap shows up too.
    if (origin >= 0) builder_.add_state(origin);
    if (declared >= 0) {
      builder_.add_state(declared);
      builder_.mark(out, builder_.target_box(declared), EdgeKind::kWrong,
                    origin >= 0 ? fmt::format("✗ writes the update of {} here",
                                              in_backticks(builder_.state_name(origin)))
                                : "✗ not the update of this state");
    }
    if (origin >= 0 && origin != declared)
      builder_.mark(out, builder_.target_box(origin), EdgeKind::kExpected, "expected target");
  }

  // The output names a target no state has.
  void paint_unresolved_target(int spec) {
    const ir::OutputSpec& output = index_.signature().output_specs(spec);
    const std::string_view wrong = output_spec_target(output);
    builder_.add_output(spec);
    const int out = builder_.output_box(spec);
    builder_.focus(out);
    for (const Edge& edge : builder_.picture().edges) {
      if (edge.from == out && edge.kind == EdgeKind::kWriteBack) {
        const int missing = edge.to;
        builder_.mark(out, missing, EdgeKind::kWrong, "✗ target does not exist");
        break;
      }
    }
    const std::optional<std::string> meant = near_miss_state(index_, wrong);
    const int expected = meant ? placeholder_of_state(index_, *meant) : -1;
    if (expected >= 0) {
      builder_.mark(out, builder_.target_box(expected), EdgeKind::kExpected,
                    fmt::format("did you mean {}?", in_backticks(builder_.state_name(expected))));
      return;
    }
    // No name is near: the dataflow still says which state the value is the update of.
    const int origin = builder_.origin_of_value(output_spec_arg_name(output));
    if (origin >= 0)
      builder_.mark(out, builder_.target_box(origin), EdgeKind::kExpected,
                    fmt::format("expected: the update of {}", in_backticks(builder_.state_name(origin))));
  }

  // The write-back edge itself is wrong: the shape differs, or the state is written twice.
  void paint_bad_write_back(int spec) {
    builder_.add_output(spec);
    const int out = builder_.output_box(spec);
    builder_.focus(out);
    const int target = builder_.write_back_target(spec);
    if (target < 0) return;
    const bool shape = finding_.rule_name == kMutationShapeMatchesTarget.name;
    if (!shape) builder_.add_state(target);  // the other write-backs of the same state
    const std::string_view value = output_spec_arg_name(index_.signature().output_specs(spec));
    builder_.mark(out, builder_.target_box(target), EdgeKind::kWrong,
                  shape ? fmt::format("✗ {} into {}", builder_.meta_of_value(value),
                                      builder_.meta_of_value(index_.placeholder_names()[target]))
                        : "✗ second write-back of this state");
  }

  // A state is updated but no output writes the update back.
  void paint_dropped_write_back() {
    const int last = builder_.add_value(finding_.location.value);
    const int state = placeholder_of_state(index_, finding_.state_fqn);
    builder_.focus(last);
    const int missing = builder_.missing_box("no write-back", "the update is discarded");
    builder_.mark(last, missing, EdgeKind::kWrong, "✗ update dropped");
    if (state >= 0)
      builder_.mark(last, builder_.target_box(state), EdgeKind::kExpected,
                    "expected write-back");
  }

  void paint_generic(bool valid_spec) {
    const Location& at = finding_.location;
    int box = -1;
    if (valid_spec) {
      builder_.add_output(*at.output_spec);
      box = builder_.output_box(*at.output_spec);
    }
    const int state = finding_.state_fqn.empty() ? -1 : placeholder_of_state(index_, finding_.state_fqn);
    if (state >= 0) {
      builder_.add_state(state);
      if (box < 0) box = builder_.state_box(state);
    }
    if (box < 0 && at.input_spec && *at.input_spec >= 0 &&
        *at.input_spec < index_.signature().input_specs_size()) {
      std::string_view arg = input_spec_arg_name(index_.signature().input_specs(*at.input_spec));
      std::optional<ValueDef> def = index_.definition(arg);
      if (def && def->placeholder >= 0) {
        builder_.add_state(def->placeholder);
        box = builder_.state_box(def->placeholder);
      }
    }
    if (!at.node.empty()) {
      if (std::optional<int> node = index_.node_by_name(at.node)) {
        box = builder_.add_node(*node);
      }
    } else if (box < 0 && !at.value.empty()) {
      box = builder_.add_value(at.value);
    }
    if (box < 0) {
      // Nothing of the graph to draw (a weights record, an archive member): name what it is.
      std::string what = !finding_.state_fqn.empty() ? finding_.state_fqn
                         : !at.archive_member.empty() ? at.archive_member
                         : !at.json_path.empty()      ? at.json_path
                                                      : "program " + finding_.program;
      box = builder_.missing_box(std::move(what), "not in the graph");
    }
    builder_.focus(box);
    mark_into(box, fmt::format("✗ {}", finding_.rule_name));
  }

  // Marks the edge that leads into `box`, or adds a marked edge from a note box.
  void mark_into(int box, std::string label) {
    for (const Edge& edge : builder_.picture().edges) {
      if (edge.to == box && edge.kind == EdgeKind::kData) {
        const int from = edge.from;
        builder_.mark(from, box, EdgeKind::kWrong, std::move(label));
        return;
      }
    }
    const int reason = builder_.missing_box(finding_.rule_id, "finding");
    builder_.mark(reason, box, EdgeKind::kWrong, std::move(label));
  }

  const ProgramIndex& index_;
  const Finding& finding_;
  ContractPictureBuilder builder_;
};

// Whether values of the program may be traced: its SSA form is sound.
bool can_trace(const ProgramIndex& index) {
  return index.ssa_facts().reads_defined && index.ssa_facts().names_unique;
}

}  // namespace

Picture program_picture(const ProgramIndex& index, std::string title) {
  ContractPictureBuilder builder(index, can_trace(index));
  std::map<std::string, std::size_t> unwritten;  // kind -> count
  std::vector<int> written;
  std::vector<bool> is_written(index.placeholder_names().size(), false);
  for (const dataflow::StateWrite& write : builder.written_states()) {
    is_written[write.placeholder] = true;
    written.push_back(write.placeholder);
  }
  std::size_t drawn = 0;
  for (int placeholder : written) {
    if (drawn++ < kMaxStatesDrawn) builder.add_state(placeholder);
  }
  if (written.size() > kMaxStatesDrawn)
    builder.collapsed_box(fmt::format("… {} more written states …", written.size() - kMaxStatesDrawn),
                          "pt2lint graph --state FQN draws one");
  for (int i = 0; i < static_cast<int>(is_written.size()); ++i) {
    if (is_written[i]) continue;
    const ir::InputSpec* spec = index.input_spec_for(index.placeholder_names()[i]);
    ++unwritten[spec == nullptr ? "placeholder" : std::string(state_kind_name(state_kind_of(*spec)))];
  }
  for (const auto& [kind, count] : unwritten)
    builder.collapsed_box(fmt::format("{} × {}", count, kind), "read only, not written");
  const ir::GraphSignature& signature = index.signature();
  std::size_t user_outputs = 0;
  for (int i = 0; i < signature.output_specs_size(); ++i) {
    const ir::OutputSpec& spec = signature.output_specs(i);
    if (is_mutation_output(spec)) {
      if (builder.write_back_target(i) < 0) builder.add_output(i);  // unresolved: draw it
    } else if (user_outputs++ < kMaxStatesDrawn) {
      builder.add_output(i);
    }
  }
  if (user_outputs > kMaxStatesDrawn)
    builder.collapsed_box(fmt::format("… {} more outputs …", user_outputs - kMaxStatesDrawn), "");
  if (builder.picture().boxes.empty()) builder.missing_box("no state and no outputs", "an empty program");
  return builder.take(std::move(title));
}

std::optional<Picture> state_picture(const ProgramIndex& index, std::string_view state,
                                     std::string title) {
  const int placeholder = placeholder_of_state(index, state);
  if (placeholder < 0) return std::nullopt;
  ContractPictureBuilder builder(index, can_trace(index));
  builder.add_state(placeholder);
  builder.focus(builder.state_box(placeholder));
  return builder.take(std::move(title));
}

Picture finding_picture(const ProgramIndex* index, const Finding& finding, std::string title) {
  if (index == nullptr) {
    Picture picture;
    picture.title = std::move(title);
    picture.boxes.push_back({"m0", BoxKind::kMissing, "no program graph",
                             "the file could not be read as a program", true});
    return picture;
  }
  return FindingPainter(*index, finding).paint(std::move(title));
}

}  // namespace pt2lint::graph
