// The promises `pt2lint diff` checks, one rule each. Their findings come from comparing two
// contracts, not from running over one program, so they are registered as metadata only
// (like the loader's rules): `pt2lint rules` and `explain` list them, `check` never runs them.
#pragma once

#include "verifier/rule_info.h"
#include "verifier/rule_registry.h"

namespace pt2lint {

inline constexpr RuleInfo kWriteBackLost{
    "PT401", "write-back-lost", Severity::kError, RulePhase::kDataflow,
    "state the original program writes has no write-back after lowering: it silently freezes"};
inline constexpr RuleInfo kWriteBackAdded{
    "PT402", "write-back-added", Severity::kError, RulePhase::kDataflow,
    "the lowered program writes back state that the original never writes"};
inline constexpr RuleInfo kWriteBackTargetRenamed{
    "PT403", "write-back-target-renamed", Severity::kError, RulePhase::kDataflow,
    "a written state was renamed without a mapping, or the mapping and the program disagree"};
inline constexpr RuleInfo kWriteBackDuplicated{
    "PT404", "write-back-duplicated", Severity::kError, RulePhase::kDataflow,
    "the lowered program writes the same state back more than once"};
inline constexpr RuleInfo kWriteBackFromOtherState{
    "PT405", "write-back-from-other-state", Severity::kError, RulePhase::kDataflow,
    "the value written back to a state is the update of a different state"};
inline constexpr RuleInfo kWriteBackShapeChanged{
    "PT406", "write-back-shape-changed", Severity::kError, RulePhase::kDataflow,
    "the value written back to a state, or the state itself, changed shape or dtype"};
inline constexpr RuleInfo kUserOutputGained{
    "PT407", "user-output-gained", Severity::kError, RulePhase::kDataflow,
    "the lowered program returns more user outputs than the original"};
inline constexpr RuleInfo kUserOutputLost{
    "PT408", "user-output-lost", Severity::kError, RulePhase::kDataflow,
    "the lowered program returns fewer user outputs than the original"};
inline constexpr RuleInfo kUserOutputReordered{
    "PT409", "user-output-reordered", Severity::kError, RulePhase::kDataflow,
    "the lowered program returns the same user outputs in a different order"};
inline constexpr RuleInfo kUserOutputChanged{
    "PT410", "user-output-changed", Severity::kError, RulePhase::kDataflow,
    "a user output changed shape, dtype or kind"};
inline constexpr RuleInfo kUserOutputTreeChanged{
    "PT411", "user-output-tree-changed", Severity::kError, RulePhase::kDataflow,
    "the output tree spec (how outputs are nested into tuples and dicts) changed"};
inline constexpr RuleInfo kUserInputChanged{
    "PT412", "user-input-changed", Severity::kError, RulePhase::kDataflow,
    "a user input was added, removed, renamed, or changed shape or dtype"};
inline constexpr RuleInfo kProgramMissing{
    "PT413", "program-missing", Severity::kError, RulePhase::kDataflow,
    "a program of one archive has no program of the same name in the other"};

inline constexpr RuleInfo kWriteBackUndecidable{
    "PT414", "write-back-undecidable", Severity::kWarning, RulePhase::kDataflow,
    "a state is passed to an op of unknown schema, so whether the lowering keeps its writes cannot be decided"};

void register_contract_rules(RuleRegistry& registry);

}  // namespace pt2lint
