// PT321 shared-state-read-only: a program reads a buffer, never writes it, and another program of
// the archive writes it. What the reader computes depends on which programs ran before it, and a
// .pt2 archive has no way to say in which order its programs must run (executorch#21958: a reader
// run first sees uninitialized memory).
// docs/rules/shared-state-read-only.md
#include <fmt/format.h>

#include <memory>
#include <string>

#include "analysis/program_index.h"
#include "analysis/state/shared_state.h"
#include "core/rule.h"
#include "core/rule_catalogue.h"

namespace pt2lint {
namespace {

class SharedStateReadOnly final : public Rule {
 public:
  const RuleInfo& info() const override { return kSharedStateReadOnly; }

  void check(const ProgramIndex& index, DiagnosticSink& sink) const override {
    if (index.archive_programs().size() < 2) return;
    for (const SharedState& state : shared_state(index.archive_programs(), index.op_knowledge())) {
      const SharedStateUse* here = nullptr;
      std::string writers;
      std::string first_writer;
      for (const SharedStateUse& use : state.uses) {
        if (use.program == &index.program()) {
          here = &use;
        } else if (use.written && use.kind == StateKind::kBuffer) {
          writers += (writers.empty() ? "`" : "`, `") + use.program->name();
          if (first_writer.empty()) first_writer = use.program->name();
        }
      }
      if (here == nullptr || here->kind != StateKind::kBuffer || !here->read || here->written || writers.empty())
        continue;
      writers += "`";
      emit(sink, kSharedStateReadOnly, index.name(),
           fmt::format("buffer `{}` (placeholder `{}`) is only read by this program, and written by "
                       "program {} of the same archive: what `{}` computes depends on which "
                       "programs ran before it",
                       state.fqn, here->placeholder, writers, index.name()))
          .at_input_spec(here->input_spec)
          .state(std::string(state.fqn))
          .note("the programs of one archive share their state by name, and nothing in a .pt2 "
                "archive says in which order they must run: run first, this program reads the "
                "buffer's initial value (on targets that drop initial values of mutated buffers, "
                "uninitialized memory)")
          .fix(fmt::format("if `{}` must run after `{}`, document and enforce that order in the "
                           "runtime that calls the package; otherwise pass the state to `{}` as a "
                           "user input, or have it initialize the buffer itself",
                           index.name(), first_writer, index.name()));
    }
  }
};

}  // namespace

std::unique_ptr<Rule> make_SharedStateReadOnly() { return std::make_unique<SharedStateReadOnly>(); }

}  // namespace pt2lint
