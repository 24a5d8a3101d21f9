#include "diagnosis/group_findings.h"

#include <fmt/format.h>

#include <algorithm>
#include <string_view>
#include <unordered_map>

#include "core/check_result.h"
#include "core/rule_catalogue.h"

namespace pt2lint::diagnosis {
namespace {

// The rules whose findings a signature root cause can explain: only errors of these are
// ever grouped, so an unrelated warning about the same state is never folded away.
bool signature_rule(std::string_view id) {
  constexpr const RuleInfo* kRules[] = {
      &kInputSpecsMatchPlaceholders, &kOutputSpecsMatchGraphOutputs, &kMutationsBeforeUserOutputs,
      &kMutationTargetResolves, &kOneMutationPerBuffer, &kOutputArityMatchesCallSpec,
      &kMutationValueDerivesFromTarget, &kMutationShapeMatchesTarget, &kBufferWriteHasWriteBack,
      &kJointGradientNamesInput, &kJointGradientMatchesInput};
  return std::any_of(std::begin(kRules), std::end(kRules),
                     [id](const RuleInfo* rule) { return rule->id == id; });
}

// Whether `cause` names the rule `f` is a finding of.
bool names_rule(const RootCause& cause, const Finding& f) {
  return std::any_of(cause.rules.begin(), cause.rules.end(),
                     [&f](const RuleInfo* rule) { return rule->id == f.rule_id; });
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
         names_rule(cause, f);
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
  std::vector<Note> notes = cause.notes;
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
    if (aliased.rule_id != kAliasedStateWritten.id || aliased.cause || aliased.state_fqn.empty())
      continue;
    for (std::size_t c = 0; c < file.findings.size(); ++c) {
      Finding& constant = file.findings[c];
      if (constant.rule_id != kConstantsAreNotWritten.id || constant.cause ||
          constant.program != aliased.program || constant.state_fqn.empty())
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

namespace {

// One program's groupable findings by what a cause can name, so that each cause looks up its
// candidates instead of scanning every finding: linear in causes plus findings, where a scan
// per cause costs causes x findings (40,000 write-backs of one buffer give 40,000 of each).
struct FindingIndex {
  std::unordered_map<int, std::vector<int>> by_output_spec, by_input_spec;
  std::unordered_map<std::string_view, std::vector<int>> by_state, by_rule;
};

FindingIndex index_findings(const FileResult& file, const std::string& program) {
  FindingIndex index;
  for (std::size_t i = 0; i < file.findings.size(); ++i) {
    const Finding& f = file.findings[i];
    if (f.program != program || f.severity != Severity::kError || !signature_rule(f.rule_id)) continue;
    const int id = static_cast<int>(i);
    if (f.location.output_spec) index.by_output_spec[*f.location.output_spec].push_back(id);
    if (f.location.input_spec) index.by_input_spec[*f.location.input_spec].push_back(id);
    if (!f.state_fqn.empty()) index.by_state[f.state_fqn].push_back(id);
    index.by_rule[f.rule_id].push_back(id);
  }
  return index;
}

// The findings `cause` explains, in report order.
std::vector<int> members_of(const RootCause& cause, FindingIndex& index, const FileResult& file,
                            std::vector<char>& seen) {
  std::vector<int> members;
  const auto take = [&](std::vector<int>& candidates) {
    // A finding once claimed (grouped, or made a primary) is never explained again: drop it
    // from the list, so that each is visited a bounded number of times.
    std::size_t kept = 0;
    for (int id : candidates) {
      const Finding& f = file.findings[static_cast<std::size_t>(id)];
      if (f.cause || !f.root_cause.empty()) continue;
      candidates[kept++] = id;
      if (!seen[static_cast<std::size_t>(id)] && explains(cause, f)) {
        seen[static_cast<std::size_t>(id)] = 1;
        members.push_back(id);
      }
    }
    candidates.resize(kept);
  };
  const auto look_up = [&](auto& map, const auto& key) {
    if (auto it = map.find(key); it != map.end()) take(it->second);
  };
  for (int spec : cause.output_specs) look_up(index.by_output_spec, spec);
  for (int spec : cause.input_specs) look_up(index.by_input_spec, spec);
  for (const std::string& state : cause.states) look_up(index.by_state, std::string_view(state));
  for (const RuleInfo* rule : cause.rules) look_up(index.by_rule, rule->id);
  for (int id : members) seen[static_cast<std::size_t>(id)] = 0;
  std::sort(members.begin(), members.end());
  return members;
}

}  // namespace

void group_findings(FileResult& file) {
  std::vector<char> seen(file.findings.size(), 0);
  for (const ProgramSummary& program : file.programs) {
    if (program.root_causes.empty()) continue;
    FindingIndex index = index_findings(file, program.name);
    for (const RootCause& cause : program.root_causes) {
      const std::vector<int> members = members_of(cause, index, file, seen);
      if (members.empty()) continue;
      Finding& primary = file.findings[static_cast<std::size_t>(members.front())];
      if (!cause.ambiguity.empty()) {
        primary.notes.push_back(fmt::format("`pt2lint fix` cannot repair this: {}: {}", cause.message,
                                            cause.ambiguity));
        continue;
      }
      make_primary(primary, cause, members.size() > 1);
      for (std::size_t k = 1; k < members.size(); ++k) {
        primary.related.push_back(members[k]);
        file.findings[static_cast<std::size_t>(members[k])].cause = members.front();
      }
    }
  }
  fold_aliased_constant_writes(file);
}

}  // namespace pt2lint::diagnosis
