// Shared state of the repair planner's two halves (input side, output side).
#pragma once

#include <map>
#include <optional>
#include <set>
#include <string>
#include <vector>

#include "core/root_cause.h"
#include "diagnosis/output_facts.h"
#include "diagnosis/signature_draft.h"

namespace pt2lint::diagnosis {

// A state an input spec declares, as the (possibly already repaired) draft declares it.
struct DeclaredState {
  StateKind kind = StateKind::kNone;  // buffer, parameter, user input, ...
  std::string target;  // FQN; the placeholder name of a user input
  int placeholder = -1;
  int input_spec = -1;
};

// "buffer `layers.0.k_cache`": a state as the planner's messages name it (plan_outputs.cc).
std::string state_words(const DeclaredState& state);
// A note about one output spec, located at it in the program as loaded (`original`); a spec the
// draft added (-1) has no place in the file yet, and its note none.
Note spec_note(std::string text, int original);

// A wrong write-back target and the state its value really is the write-back of.
struct Retarget {
  int slot;
  DeclaredState meant;
  std::string written;                 // the target as the spec names it
  std::optional<DeclaredState> named;  // what that name resolves to, if anything
  EditProof proof{};                   // when not the cause's own (placed by elimination)
};

class Planner {
 public:
  Planner(const ProgramIndex& index, SignatureDraft draft, bool outputs_paired)
      : index_(index), facts_(index), draft_(std::move(draft)), outputs_paired_(outputs_paired) {}

  void plan_inputs();   // plan_inputs.cc
  void restore_dropped_input();
  void reconcile_state_names();
  void restore_written_constants();
  void plan_outputs();  // plan_outputs.cc
  void set_original_states(std::set<std::string> names) { original_states_ = std::move(names); }
  // The causes, every edit labelled with what decided it (proof_of its cause's final kind,
  // unless the phase that proposed it gave its own).
  std::vector<RootCause> take();
  const SignatureDraft& draft() const { return draft_; }

 private:
  // Adds `edit` to `cause` and applies it to the draft; `proof`, when given, is what decided it.
  void apply(RootCause& cause, SignatureEdit edit, EditProof proof = {});
  void declare_states();
  std::optional<DeclaredState> state_of_placeholder(int placeholder) const;
  std::optional<DeclaredState> resolve_target(const ir::OutputSpec& spec) const;
  bool functional() const;
  bool saved_state(std::string_view fqn) const;  // a weights or constants config key

  // Output-side phases, in order (plan_outputs.cc).
  void align_specs();
  // Joint programs: gradients declared for the wrong parameter or user input, paired again by
  // shape and dtype where exactly one pairing fits (plan_gradients.cc).
  void pair_gradients();
  void pair_write_backs();
  // Fresh write-back values that cannot stay where they are and are not user outputs: each
  // goes to the one state left without a write-back of its shape and dtype, and the fresh values
  // that stayed where they are (`stayed`) must have no other candidate (plan_elimination.cc).
  bool place_by_elimination(const std::vector<int>& homeless, const std::vector<int>& stayed,
                            std::map<int, int>& written, std::vector<Retarget>& retargets);
  bool eliminate(const std::vector<int>& homeless, const std::vector<int>& stayed, std::map<int, int>& written,
                 std::vector<Retarget>& retargets);
  // When elimination leaves several candidates: the order PyTorch writes mutation outputs in
  // (input-spec order), used only where the dataflow-decided write-backs agree with it.
  bool place_by_input_order(const std::vector<int>& homeless, const std::vector<int>& stayed,
                            std::map<int, int>& written, std::vector<Retarget>& retargets);
  void restore_lost_write_backs();  // plan_lost_write_backs.cc
  // The arity case for fresh values: a whole-state overwrite returned as a user output, one of
  // the out_spec's surplus, goes back to the only unwritten buffer of its shape and dtype.
  void restore_fresh_copy_backs();  // plan_elimination.cc
  void drop_extra_user_outputs();
  void order_layout();
  void move_tokens_first();
  bool move_user_outputs_back(RootCause& cause);
  bool move_mutations_forward(RootCause& cause);
  int insertion_point(int input_spec) const;
  std::optional<std::size_t> out_spec_leaves() const;
  int user_output_count() const;
  void add_cause(RootCause cause);

  const ProgramIndex& index_;
  ProgramFacts facts_;
  SignatureDraft draft_;
  bool outputs_paired_;
  std::vector<DeclaredState> states_;        // by input spec
  std::map<int, int> state_by_placeholder_;  // placeholder -> index into states_
  std::vector<RootCause> causes_;
  int sequence_ = 0;
  std::set<std::string> original_states_;  // fix --against: ORIGINAL's state names
};

}  // namespace pt2lint::diagnosis
