#include "diagnosis/group_findings.h"

#include <fmt/format.h>

#include <algorithm>
#include <string_view>

#include "core/check_result.h"

namespace pt2lint::diagnosis {
namespace {

// The rules whose findings a signature root cause can explain: only errors of these are
// ever grouped, so an unrelated warning about the same state is never folded away.
bool signature_rule(std::string_view id) {
  constexpr std::string_view kRules[] = {"PT201", "PT202", "PT203", "PT204", "PT205",
                                         "PT210", "PT301", "PT302", "PT303"};
  return std::find(std::begin(kRules), std::end(kRules), id) != std::end(kRules);
}

template <typename T>
bool contains(const std::vector<T>& list, const T& item) {
  return std::find(list.begin(), list.end(), item) != list.end();
}

bool explains(const RootCause& cause, const Finding& f) {
  if (f.severity != Severity::kError || !signature_rule(f.rule_id) || f.cause || !f.root_cause.empty())
    return false;
  const Location& at = f.location;
  return (at.output_spec && contains(cause.output_specs, *at.output_spec)) ||
         (at.input_spec && contains(cause.input_specs, *at.input_spec)) ||
         (!f.state_fqn.empty() && contains(cause.states, f.state_fqn)) ||
         contains(cause.rule_ids, f.rule_id);
}

std::string repair_words(const RootCause& cause) {
  std::string out = cause.repair;
  if (out.empty())
    for (const SignatureEdit& edit : cause.edits) out += (out.empty() ? "" : "; ") + describe_edit(edit);
  return out + " (`pt2lint fix` applies this)";
}

// A cause that explains several findings speaks for them in the primary's message. One that
// explains only its own finding leaves the rule's message, already the one thing that went
// wrong: when the rule also states a concrete fix ("set the target to X"), the cause adds only
// its edits as data; otherwise its notes and repair words join the finding.
void make_primary(Finding& f, const RootCause& cause, bool groups_others) {
  f.root_cause = cause.kind;
  if (!groups_others && f.fix && !f.fix->description.empty()) {
    f.fix->edits = cause.edits;
    return;
  }
  std::vector<std::string> notes = cause.notes;
  if (groups_others)
    notes.push_back(fmt::format("root cause of this {} finding: {}", f.rule_name, f.message));
  else
    notes.insert(notes.begin(), fmt::format("root cause: {}", cause.message));
  notes.insert(notes.end(), f.notes.begin(), f.notes.end());
  f.notes = std::move(notes);
  if (groups_others) f.message = cause.message;
  f.fix = SuggestedFix{repair_words(cause), {}, cause.edits};
}

// PT308 on a tensor constant that PT305 already reports written (a transformers static cache:
// the constant is written in place and shares its storage with a buffer): one cause, PT305's.
// The warning folds under the error, which says what to change.
void fold_aliased_constant_writes(FileResult& file) {
  for (std::size_t w = 0; w < file.findings.size(); ++w) {
    Finding& aliased = file.findings[w];
    if (aliased.rule_id != "PT308" || aliased.cause || aliased.state_fqn.empty()) continue;
    for (std::size_t c = 0; c < file.findings.size(); ++c) {
      Finding& constant = file.findings[c];
      if (constant.rule_id != "PT305" || constant.cause || constant.program != aliased.program ||
          constant.state_fqn.empty())
        continue;
      const bool same = constant.state_fqn == aliased.state_fqn ||
                        aliased.message.find("`" + constant.state_fqn + "`") != std::string::npos;
      if (!same) continue;
      if (constant.root_cause.empty()) constant.root_cause = "constant-written";
      constant.related.push_back(static_cast<int>(w));
      aliased.cause = static_cast<int>(c);
      break;
    }
  }
}

}  // namespace

void group_findings(FileResult& file) {
  for (const ProgramSummary& program : file.programs) {
    for (const RootCause& cause : program.root_causes) {
      std::vector<int> members;
      for (std::size_t i = 0; i < file.findings.size(); ++i)
        if (file.findings[i].program == program.name && explains(cause, file.findings[i]))
          members.push_back(static_cast<int>(i));
      if (members.empty()) continue;
      Finding& primary = file.findings[members.front()];
      if (!cause.ambiguity.empty()) {
        primary.notes.push_back(fmt::format("`pt2lint fix` cannot repair this: {}: {}", cause.message,
                                            cause.ambiguity));
        continue;
      }
      make_primary(primary, cause, members.size() > 1);
      for (std::size_t k = 1; k < members.size(); ++k) {
        primary.related.push_back(members[k]);
        file.findings[members[k]].cause = members.front();
      }
    }
  }
  fold_aliased_constant_writes(file);
}

}  // namespace pt2lint::diagnosis
