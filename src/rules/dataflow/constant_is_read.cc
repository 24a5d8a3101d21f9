// PT309 constant-is-read: a lifted tensor constant that nothing reads.
// docs/rules/constant-is-read.md
#include <fmt/format.h>

#include "analysis/program_index.h"
#include "analysis/state/state_use.h"
#include "core/rule.h"
#include "core/rule_catalogue.h"

namespace pt2lint {
namespace {

class ConstantIsRead final : public Rule {
 public:
  const RuleInfo& info() const override { return kConstantIsRead; }

  void check(const ProgramIndex& index, DiagnosticSink& sink) const override {
    const std::vector<int> unused = unused_state_placeholders(
        index, [](const ir::InputSpec& spec) { return spec.has_tensor_constant(); });
    for (int p : unused) {
      std::string_view placeholder = index.placeholder_names()[static_cast<std::size_t>(p)];
      const std::optional<int> spec_index = index.input_spec_index(placeholder);
      std::string_view fqn = input_spec_target(*index.input_spec_for(placeholder));
      emit(sink, kConstantIsRead, index.name(),
           fmt::format("tensor constant `{}` (placeholder `{}`) is lifted and saved, but nothing "
                       "reads it{}",
                       fqn, placeholder,
                       index.archive_programs().size() > 1 ? " in any program of the archive" : ""))
          .at_input_spec(spec_index.value_or(-1))
          .at_value(std::string(placeholder))
          .state(std::string(fqn))
          .note("a constant is loaded from the archive and kept in memory by every runtime, and "
                "since constants are never written, an unread one has no effect at all")
          .fix(fmt::format("drop the tensor that becomes `{}` from the model (a tensor attribute "
                           "captured by the exported code but not used), then export again",
                           fqn));
    }
  }
};

}  // namespace

std::unique_ptr<Rule> make_ConstantIsRead() { return std::make_unique<ConstantIsRead>(); }

}  // namespace pt2lint
