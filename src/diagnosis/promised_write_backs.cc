#include "diagnosis/promised_write_backs.h"

#include <fmt/format.h>

#include <algorithm>
#include <optional>
#include <set>
#include <string_view>

#include "analysis/program_index.h"
#include "core/ir/ir_accessors.h"
#include "core/ir/state_kind.h"
#include "diagnosis/output_facts.h"

namespace pt2lint::diagnosis {
namespace {

void tensor_names(const ir::Argument& arg, std::vector<std::string>& out) {
  if (arg.has_as_tensor()) out.emplace_back(arg.as_tensor().name());
  if (arg.has_as_optional_tensor() && arg.as_optional_tensor().has_as_tensor())
    out.emplace_back(arg.as_optional_tensor().as_tensor().name());
  if (arg.has_as_tensors())
    for (const ir::TensorArgument& t : arg.as_tensors().items()) out.emplace_back(t.name());
  if (arg.has_as_optional_tensors())
    for (const ir::OptionalTensorArgument& t : arg.as_optional_tensors().items())
      if (t.has_as_tensor()) out.emplace_back(t.as_tensor().name());
}

// Whether `value` is computed in `here` exactly as in `there`: the same placeholder (with the
// same input spec), or a node of the same op with the same inputs, whose tensor inputs are
// computed the same way in turn, all the way back to the placeholders. Only top-level graph
// nodes take part; a node whose inputs hold a subgraph or an unusual argument is compared
// by its serialized inputs, which then must be equal too.
bool same_computation(const ProgramIndex& here, const ProgramIndex& there, const std::string& value) {
  std::vector<std::string> work{value};
  std::set<std::string> seen;
  while (!work.empty()) {
    const std::string name = std::move(work.back());
    work.pop_back();
    if (!seen.insert(name).second) continue;
    const std::optional<ValueDef> a = here.definition(name), b = there.definition(name);
    if (!a || !b || here.definition_count(name) != 1 || there.definition_count(name) != 1) return false;
    if ((a->placeholder >= 0) != (b->placeholder >= 0)) return false;
    if (a->placeholder >= 0) {
      const ir::InputSpec* sa = here.input_spec_for(name);
      const ir::InputSpec* sb = there.input_spec_for(name);
      if (sa == nullptr || sb == nullptr || sa->SerializeAsString() != sb->SerializeAsString()) return false;
      continue;
    }
    if (a->node < 0 || b->node < 0 || a->node >= here.graph().nodes_size() || b->node >= there.graph().nodes_size())
      return false;
    const ir::Node& na = here.graph().nodes(a->node);
    const ir::Node& nb = there.graph().nodes(b->node);
    if (na.target() != nb.target() || na.inputs_size() != nb.inputs_size() || na.outputs_size() != nb.outputs_size())
      return false;
    for (int k = 0; k < na.inputs_size(); ++k) {
      if (na.inputs(k).SerializeAsString() != nb.inputs(k).SerializeAsString()) return false;
      tensor_names(na.inputs(k).arg(), work);
    }
    for (int k = 0; k < na.outputs_size(); ++k)
      if (na.outputs(k).SerializeAsString() != nb.outputs(k).SerializeAsString()) return false;
  }
  return true;
}

// Where a new write-back of the state declared by input spec `input_spec` goes: after the
// tokens and the write-backs of states declared before it, as torch.export lays them out.
int insertion_point(const SignatureDraft& draft, int input_spec) {
  for (std::size_t k = 0; k < draft.outputs.size(); ++k) {
    const ir::OutputSpec& spec = draft.outputs[k].spec;
    if (spec.has_token()) continue;
    if (!is_mutation_output(spec)) return static_cast<int>(k);
    const StateKind kind = mutation_state_kind(spec);
    const std::string_view target = output_spec_target(spec);
    for (std::size_t j = 0; j < draft.inputs.size(); ++j) {
      const ir::InputSpec& in = draft.inputs[j];
      const bool declares = state_kind_of(in) == kind &&
                            (kind == StateKind::kUserInput ? input_spec_arg_name(in) : input_spec_target(in)) == target;
      if (declares && static_cast<int>(j) > input_spec) return static_cast<int>(k);
    }
  }
  return static_cast<int>(draft.outputs.size());
}

}  // namespace

PromisedRepair restore_promised_write_backs(ir::Program& program, const ir::Program& original,
                                            const std::vector<PromisedWrite>& missing) {
  PromisedRepair repair;
  if (!read_draft(program.program(), repair.before)) {
    repair.refusal = "its output specs and graph outputs differ in number, so no write-back can be placed";
    return repair;
  }
  repair.after = repair.before;
  {
    const ProgramIndex index(program), original_index(original);
    if (!graph_is_sound(index) || !graph_is_sound(original_index)) {
      repair.refusal = "a graph is not sound (a value is read before it is defined, or defined twice)";
      return repair;
    }
    ProgramFacts facts(index), original_facts(original_index);
    int sequence = 0;
    for (const PromisedWrite& write : missing) {
      int input_spec = -1;
      StateKind kind = StateKind::kNone;
      std::string placeholder;
      for (std::size_t j = 0; j < repair.after.inputs.size(); ++j) {
        const ir::InputSpec& in = repair.after.inputs[j];
        const StateKind k = state_kind_of(in);
        const std::string_view name = k == StateKind::kUserInput ? input_spec_arg_name(in) : input_spec_target(in);
        if (name != write.target || mutation_spec_kind(k).empty()) continue;
        input_spec = static_cast<int>(j);
        kind = k;
        placeholder = std::string(input_spec_arg_name(in));
        break;
      }
      const std::optional<ValueDef> def = placeholder.empty() ? std::nullopt : index.definition(placeholder);
      if (input_spec < 0 || !def || def->placeholder < 0) {
        repair.erased.push_back(fmt::format("`{}`: the program no longer declares it as a writable input, so no "
                                            "write-back can name it", write.original_target));
        continue;
      }
      auto returned = [&](std::string_view value) {
        return std::any_of(repair.after.outputs.begin(), repair.after.outputs.end(),
                           [&](const OutputSlot& s) { return s.value() == value; });
      };
      SignatureEdit edit{EditOp::kAddWriteBack, -1, insertion_point(repair.after, input_spec),
                         std::string(mutation_spec_kind(kind)), write.target};
      const std::string update(facts.final_update(def->placeholder));
      const std::string& meta = original_facts.fact(write.original_value).meta;
      RootCause cause{"lost-promised-write-back"};
      cause.states.push_back(write.target);
      if (!update.empty() && !returned(update) && (meta.empty() || facts.fact(update).meta == meta)) {
        edit.value = update;
        edit.proof = {EditEvidence::kDataflow,
                      fmt::format("dataflow: `{}` is the last update of `{}`, which no output returns; ORIGINAL "
                                  "writes the state back", update, write.target)};
      } else if (!returned(write.original_value) && !meta.empty() &&
                 facts.fact(write.original_value).meta == meta &&
                 same_computation(index, original_index, write.original_value)) {
        edit.value = write.original_value;
        edit.proof = {EditEvidence::kOriginal,
                      fmt::format("original: ORIGINAL writes `{}` back with `{}` {}; this program still computes "
                                  "it by the same ops from the same inputs, and no output returns it",
                                  write.original_target, write.original_value, meta)};
      } else {
        repair.erased.push_back(fmt::format(
            "`{}`: ORIGINAL writes it back with `{}`{}, and this program no longer computes that value (an erased "
            "computation{}): no signature edit can restore the write", write.original_target, write.original_value,
            meta.empty() ? "" : " " + meta, update.empty() ? "" : fmt::format("; its last update `{}` is {}", update,
                                                                             returned(update) ? "already an output" : "of another shape or dtype")));
        continue;
      }
      edit.sequence = sequence++;
      cause.message = fmt::format("the write-back of `{}` that ORIGINAL promises was lost; {}", write.target,
                                  describe_edit(edit));
      if (Status applied = apply_edit(repair.after, edit); !applied.ok()) {
        repair.refusal = "an edit does not apply: " + applied.message();
        return repair;
      }
      cause.edits.push_back(edit);
      repair.edits.push_back(std::move(edit));
      repair.causes.push_back(std::move(cause));
    }
  }
  if (!repair.erased.empty()) {
    repair.edits.clear();
    repair.causes.clear();
    return repair;
  }
  if (!repair.edits.empty()) write_draft(repair.after, *program.mutable_program());
  return repair;
}

PromisedRepair adopt_original_outputs(ir::Program& program, const ir::Program& original) {
  PromisedRepair repair;
  SignatureDraft want;
  if (!read_draft(program.program(), repair.before) || !read_draft(original.program(), want)) {
    repair.refusal = "output specs and graph outputs differ in number";
    return repair;
  }
  repair.after = repair.before;
  auto& slots = repair.after.outputs;
  if (slots.size() != want.outputs.size() || repair.after.inputs.size() != want.inputs.size()) {
    repair.refusal = fmt::format("it has {} inputs and {} outputs where ORIGINAL has {} and {}",
                                 repair.after.inputs.size(), slots.size(), want.inputs.size(), want.outputs.size());
    return repair;
  }
  for (std::size_t j = 0; j < want.inputs.size(); ++j) {
    if (repair.after.inputs[j].SerializeAsString() != want.inputs[j].SerializeAsString()) {
      repair.refusal = fmt::format("its input spec {} is not ORIGINAL's", j);
      return repair;
    }
  }
  {
    const ProgramIndex index(program), original_index(original);
    if (!graph_is_sound(index) || !graph_is_sound(original_index)) {
      repair.refusal = "a graph is not sound (a value is read before it is defined, or defined twice)";
      return repair;
    }
    for (const OutputSlot& slot : want.outputs) {
      const std::string value(slot.value());
      if (value.empty() || !same_computation(index, original_index, value)) {
        repair.refusal = fmt::format("ORIGINAL's output `{}` is not computed here by the same ops from the same inputs",
                                     value.empty() ? std::string("(a constant)") : value);
        return repair;
      }
    }
  }
  int sequence = 0;
  const EditProof proof{EditEvidence::kOriginal,
                        "original: the program returns ORIGINAL's values, each computed by the same ops from the "
                        "same inputs, so ORIGINAL's output signature is its"};
  RootCause cause{"signature-from-original"};
  auto add = [&](SignatureEdit edit) -> bool {
    edit.sequence = sequence++;
    edit.proof = proof;
    if (Status applied = apply_edit(repair.after, edit); !applied.ok()) {
      repair.refusal = "an edit does not apply: " + applied.message();
      return false;
    }
    cause.edits.push_back(edit);
    repair.edits.push_back(std::move(edit));
    return true;
  };
  for (std::size_t k = 0; k < want.outputs.size(); ++k) {
    std::size_t j = k;
    while (j < slots.size() && slots[j].value() != want.outputs[k].value()) ++j;
    if (j == slots.size()) {
      repair.refusal = fmt::format("ORIGINAL's output `{}` is not one of its outputs", want.outputs[k].value());
      return repair;
    }
    if (j != k && !add({EditOp::kMove, static_cast<int>(j), static_cast<int>(k)})) return repair;
  }
  for (std::size_t k = 0; k < want.outputs.size(); ++k) {
    const ir::OutputSpec& spec = want.outputs[k].spec;
    if (slots[k].spec.SerializeAsString() == spec.SerializeAsString()) continue;
    const std::string kind = is_mutation_output(spec) ? std::string(mutation_spec_kind(mutation_state_kind(spec)))
                             : spec.has_user_output() ? std::string("user_output")
                                                      : std::string();
    if (kind.empty()) {
      repair.refusal = fmt::format("ORIGINAL's output spec {} is of a kind no edit writes", k);
      return repair;
    }
    if (!add({EditOp::kRetarget, static_cast<int>(k), -1, kind,
              kind == "user_output" ? std::string() : std::string(output_spec_target(spec))}))
      return repair;
  }
  for (std::size_t k = 0; k < want.outputs.size(); ++k) {
    if (slots[k].spec.SerializeAsString() != want.outputs[k].spec.SerializeAsString()) {
      repair.refusal = fmt::format("output spec {} does not come out as ORIGINAL's", k);
      repair.edits.clear();
      return repair;
    }
  }
  cause.message = fmt::format("the outputs are ORIGINAL's values; ORIGINAL's output signature is restored ({} edit(s))",
                              repair.edits.size());
  repair.causes.push_back(std::move(cause));
  if (!repair.edits.empty()) write_draft(repair.after, *program.mutable_program());
  return repair;
}

}  // namespace pt2lint::diagnosis
