// PT320 shared-state-consistent: one state name lifted by several programs of an archive with
// another kind, shape or dtype in one of them. The programs of a package share their state by name,
// so the package is broken: one program reads or writes storage of the wrong layout.
// docs/rules/shared-state-consistent.md
#include <fmt/format.h>

#include <memory>

#include "analysis/program_index.h"
#include "analysis/state/shared_state.h"
#include "core/rule.h"
#include "core/rule_catalogue.h"

namespace pt2lint {
namespace {

class SharedStateConsistent final : public Rule {
 public:
  const RuleInfo& info() const override { return kSharedStateConsistent; }

  void check(const ProgramIndex& index, DiagnosticSink& sink) const override {
    if (index.archive_programs().size() < 2) return;
    for (const SharedState& state : shared_state(index.archive_programs(), index.op_knowledge())) {
      const SharedStateUse& first = state.uses.front();
      // Each disagreement is reported once, by the program that disagrees with the first.
      for (std::size_t i = 1; i < state.uses.size(); ++i) {
        const SharedStateUse& use = state.uses[i];
        if (use.program != &index.program()) continue;
        const bool kind_differs = use.kind != first.kind;
        const bool facts_differ = !use.symbolic && !first.symbolic && !use.facts.empty() &&
                                  !first.facts.empty() && use.facts != first.facts;
        if (!kind_differs && !facts_differ) continue;
        report(index, sink, state.fqn, use, first, kind_differs);
      }
    }
  }

 private:
  static void report(const ProgramIndex& index, DiagnosticSink& sink, std::string_view fqn,
                     const SharedStateUse& here, const SharedStateUse& first, bool kind_differs) {
    const std::string there = first.program->name();
    const std::string what =
        kind_differs
            ? fmt::format("is a {} here but a {} in program `{}`", state_kind_words(here.kind),
                          state_kind_words(first.kind), there)
            : fmt::format("is {} here but {} in program `{}`", here.facts, first.facts, there);
    emit(sink, kSharedStateConsistent, index.name(),
         fmt::format("state `{}` (placeholder `{}`) {}: the programs of one archive share their "
                     "state by name, so they cannot both be right",
                     fqn, here.placeholder, what))
        .at_input_spec(here.input_spec)
        .state(std::string(fqn))
        .note(kind_differs
                  ? "a runtime that loads the package keeps one tensor per name: one program will "
                    "write what another treats as read-only, or read a constant that another "
                    "program updates"
                  : "a runtime that loads the package keeps one tensor per name: one of the "
                    "programs reads or writes it with the wrong layout (an out-of-bounds cache "
                    "write, or bytes reinterpreted as another dtype)")
        .fix(fmt::format("export program `{}` and `{}` from one module instance, configured the "
                         "same (cache length, dtype, register_buffer for every tensor), or put "
                         "unrelated models in separate archives",
                         index.name(), there));
  }
};

}  // namespace

std::unique_ptr<Rule> make_SharedStateConsistent() { return std::make_unique<SharedStateConsistent>(); }

}  // namespace pt2lint
